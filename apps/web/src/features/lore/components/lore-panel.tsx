import { CloseCircleFilled, CopyOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  LORE_RECURSION_MAX,
  LORE_SCAN_DEPTH_MAX,
  LORE_TOKEN_BUDGET_MAX,
  type LoreEntry,
  type LoreSettings,
} from '@taleloom/contracts';
import { Alert, Button, Collapse, Empty, Form, Input, InputNumber, Popconfirm, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useCreateLoreEntry } from '../api/create-lore-entry';
import { useDeleteLoreEntry } from '../api/delete-lore-entry';
import { useDuplicateLoreEntry } from '../api/duplicate-lore-entry';
import { useLore } from '../api/get-lore';
import { useUpdateLoreEntry } from '../api/update-lore-entry';
import { useUpdateLoreSettings } from '../api/update-lore-settings';
import { LoreEntryForm, type LoreEntryValues } from './lore-entry-form';
import { LoreFileActions } from './lore-file-actions';
import { useFeedback } from '../../../components/feedback';

/** The story's lore entries: search, add, edit, duplicate, enable or disable, delete; and the lore settings. */
export function LorePanel({ storyId }: { storyId: string }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const lore = useLore(storyId);
  const create = useCreateLoreEntry(storyId);
  const update = useUpdateLoreEntry(storyId);
  const remove = useDeleteLoreEntry(storyId);
  const duplicate = useDuplicateLoreEntry(storyId);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<LoreEntry | 'new' | null>(null);
  const showError = (error: unknown) => void message.error(getErrorMessage(error, t));

  const entries = lore.data?.entries;
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!entries || !q) return entries ?? [];
    return entries.filter((e) => [e.title, e.content, ...e.keys, ...e.secondary_keys].some((s) => s.toLowerCase().includes(q)));
  }, [entries, search]);

  if (lore.isPending) return <Skeleton active />;
  if (lore.isError) return <Alert type="error" showIcon title={getErrorMessage(lore.error, t)} />;

  const save = async (values: LoreEntryValues) => {
    try {
      if (editing === 'new') await create.mutateAsync(values);
      else if (editing) await update.mutateAsync({ entryId: editing.id, change: values });
      setEditing(null);
      void message.success(t('lore.saved'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <div className="tl-lore" data-testid="lore-panel">
      <Typography.Paragraph type="secondary" className="tl-lore__intro">
        {t('lore.intro')}
      </Typography.Paragraph>
      <div className="tl-lore__bar">
        <Input.Search
          allowClear={{ clearIcon: <CloseCircleFilled aria-label={t('common.clear')} /> }}
          placeholder={t('lore.search')}
          aria-label={t('lore.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="lore-search"
        />
        <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => setEditing('new')} data-testid="lore-add">
          {t('lore.add')}
        </Button>
      </div>
      <LoreFileActions storyId={storyId} entries={lore.data.entries.length} />
      <Typography.Text type="secondary" className="tl-lore__count">
        {t('lore.count', { count: lore.data.entries.length })}
      </Typography.Text>
      {shown.length === 0 ? (
        <Empty description={lore.data.entries.length ? t('lore.noMatch') : t('lore.empty')} />
      ) : (
        <ul className="tl-lore__list" aria-label={t('lore.tabs.entries')}>
          {shown.map((entry) => (
            <li key={entry.id} className={`tl-lore__entry${entry.enabled ? '' : ' tl-lore__entry--off'}`} data-testid="lore-entry">
              <div className="tl-lore__entry-head">
                <Switch
                  size="small"
                  checked={entry.enabled}
                  aria-label={t('lore.enabledFor', { title: entry.title })}
                  onChange={(enabled) => update.mutate({ entryId: entry.id, change: { enabled } }, { onError: showError })}
                  data-testid="lore-entry-enabled"
                />
                <Typography.Text strong className="tl-lore__title">
                  {entry.title}
                </Typography.Text>
                <Space size={0} className="tl-lore__actions">
                  <Button type="text" size="small" icon={<EditOutlined aria-hidden="true" />} aria-label={t('lore.edit')} onClick={() => setEditing(entry)} data-testid="lore-entry-edit" />
                  <Button
                    type="text"
                    size="small"
                    icon={<CopyOutlined aria-hidden="true" />}
                    aria-label={t('lore.duplicate')}
                    onClick={() => duplicate.mutate(entry.id, { onError: showError })}
                    data-testid="lore-entry-duplicate"
                  />
                  <Popconfirm title={t('lore.deleteConfirm', { title: entry.title })} okText={t('lore.delete')} cancelText={t('common.cancel')} onConfirm={() => remove.mutateAsync(entry.id).catch(showError)}>
                    <Button type="text" size="small" danger icon={<DeleteOutlined aria-hidden="true" />} aria-label={t('lore.delete')} data-testid="lore-entry-delete" />
                  </Popconfirm>
                </Space>
              </div>
              <div className="tl-lore__tags">
                {entry.constant ? <Tag color="purple">{t('lore.always')}</Tag> : null}
                {entry.keys.map((k) => (
                  <Tag key={`k-${k}`}>{k}</Tag>
                ))}
                {entry.secondary_keys.length ? (
                  <Typography.Text type="secondary" className="tl-lore__also">
                    {t('lore.andAlso', { keys: entry.secondary_keys.join(t('lore.listSeparator')) })}
                  </Typography.Text>
                ) : null}
                {!entry.constant && !entry.keys.length ? <Tag color="warning">{t('lore.neverFires')}</Tag> : null}
                <Typography.Text type="secondary" className="tl-lore__order">
                  {t('lore.orderShort', { order: entry.order })}
                </Typography.Text>
              </div>
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="tl-lore__content">
                {entry.content}
              </Typography.Paragraph>
            </li>
          ))}
        </ul>
      )}
      <Collapse
        ghost
        className="tl-lore__settings"
        items={[{ key: 'settings', label: t('lore.settings.title'), children: <LoreSettingsForm storyId={storyId} settings={lore.data.settings} /> }]}
      />
      <LoreEntryForm
        open={editing !== null}
        entry={editing === 'new' ? null : editing}
        saving={create.isPending || update.isPending}
        onCancel={() => setEditing(null)}
        onSave={(values) => void save(values)}
      />
    </div>
  );
}

// Each number is saved when it is left (or Enter is pressed).
function LoreSettingsForm({ storyId, settings }: { storyId: string; settings: LoreSettings }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const update = useUpdateLoreSettings(storyId);
  const field = (name: keyof LoreSettings, max: number) => (
    <Form.Item label={t(`lore.settings.${name}`)} extra={t(`lore.settings.${name}Hint`)}>
      <InputNumber
        key={`${name}-${settings[name]}`}
        min={0}
        max={max}
        precision={0}
        defaultValue={settings[name]}
        onBlur={(e) => {
          const value = Number.parseInt(e.target.value.replace(/[^\d]/g, ''), 10);
          if (Number.isFinite(value) && value !== settings[name] && value <= max) {
            update.mutate({ [name]: value }, { onSuccess: () => void message.success(t('lore.saved')), onError: (error) => void message.error(getErrorMessage(error, t)) });
          }
        }}
        data-testid={`lore-settings-${name}`}
      />
    </Form.Item>
  );
  return (
    <Form layout="vertical">
      {field('scan_depth', LORE_SCAN_DEPTH_MAX)}
      {field('token_budget', LORE_TOKEN_BUDGET_MAX)}
      {field('recursion_depth', LORE_RECURSION_MAX)}
    </Form>
  );
}
