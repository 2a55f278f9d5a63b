import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { CUSTOM_MODEL_LIMIT, type CustomModelView } from '@taleloom/contracts';
import { Alert, Button, Empty, Modal, Popconfirm, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useDeleteCustomModel } from '../api/delete-custom-model';
import { useCustomModels } from '../api/get-custom-models';
import { CustomModelForm } from './custom-model-form';
import './custom-models.css';
import { useFeedback } from '../../../components/feedback';

export interface CustomModelDialogProps {
  open: boolean;
  onClose: () => void;
  /** A model was renamed (stories that chose it follow on the server). */
  onRenamed?: (from: string, to: string) => void;
  onDeleted?: (name: string) => void;
}

type View = { kind: 'list' } | { kind: 'add' } | { kind: 'edit'; model: CustomModelView };

/** The custom model dialog (spec section 2, play screen): list, add, edit, delete, presets and test. */
export function CustomModelDialog({ open, onClose, onRenamed, onDeleted }: CustomModelDialogProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const models = useCustomModels(open);
  const remove = useDeleteCustomModel();
  const [view, setView] = useState<View>({ kind: 'list' });
  const list = models.data ?? [];
  const full = list.length >= CUSTOM_MODEL_LIMIT;

  useEffect(() => {
    if (open) setView({ kind: 'list' });
  }, [open]);

  const onDelete = (name: string) =>
    remove.mutateAsync(name).then(
      () => {
        void message.success(t('customModels.deleted', { name }));
        onDeleted?.(name);
      },
      (error: unknown) => void message.error(t('customModels.deleteFailed', { reason: getErrorMessage(error, t) })),
    );

  const title =
    view.kind === 'add' ? t('customModels.addTitle') : view.kind === 'edit' ? t('customModels.editTitle', { name: view.model.model_name }) : t('customModels.title');

  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} width={640} destroyOnHidden data-testid="custom-model-dialog" className="tl-custom-models">
      {view.kind === 'list' ? (
        <>
          <Typography.Paragraph className="tl-custom-models__intro" data-testid="custom-model-intro">
            {t('customModels.intro')}
          </Typography.Paragraph>
          {models.isError ? (
            <Alert
              type="error"
              showIcon
              title={t('customModels.getFailed', { reason: getErrorMessage(models.error, t) })}
              action={<Button size="small" onClick={() => void models.refetch()}>{t('customModels.retry')}</Button>}
              data-testid="custom-model-get-error"
            />
          ) : models.isPending ? (
            <Skeleton active paragraph={{ rows: 3 }} />
          ) : list.length === 0 ? (
            <Empty description={t('customModels.empty')} />
          ) : (
            <ul className="tl-custom-models__list" data-testid="custom-model-list">
              {list.map((m) => (
                <li key={m.model_name} className="tl-custom-models__item" data-testid="custom-model-item">
                  <div className="tl-custom-models__body">
                    <span className="tl-custom-models__name">
                      <span data-testid="custom-model-item-name">{m.model_name}</span>
                      {m.enable_reasoning ? <Tag color="geekblue">{t('customModels.reasoningTag')}</Tag> : null}
                    </span>
                    <span className="tl-custom-models__meta">
                      <span className="tl-custom-models__url">{m.base_url}</span>
                      <span>
                        {t('customModels.key')} {m.api_key_masked}
                      </span>
                    </span>
                  </div>
                  <Button type="text" icon={<EditOutlined aria-hidden="true" />} onClick={() => setView({ kind: 'edit', model: m })} aria-label={`${t('customModels.edit')} ${m.model_name}`} data-testid="custom-model-edit" />
                  <Popconfirm
                    title={t('customModels.deleteTitle', { name: m.model_name })}
                    description={t('customModels.deleteBody')}
                    okText={t('customModels.delete')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ danger: true, ...({ 'data-testid': 'custom-model-delete-ok' } as Record<string, string>) }}
                    onConfirm={() => onDelete(m.model_name)}
                  >
                    <Button type="text" danger icon={<DeleteOutlined aria-hidden="true" />} aria-label={`${t('customModels.delete')} ${m.model_name}`} data-testid="custom-model-delete" />
                  </Popconfirm>
                </li>
              ))}
            </ul>
          )}
          <div className="tl-custom-models__actions">
            <Tooltip title={full ? t('customModels.limitReached') : undefined}>
              <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} disabled={full || models.isPending || models.isError} onClick={() => setView({ kind: 'add' })} data-testid="custom-model-add">
                {t('customModels.add')}
              </Button>
            </Tooltip>
            {full ? (
              <Typography.Text type="secondary" data-testid="custom-model-limit">
                {t('customModels.limitReached')}
              </Typography.Text>
            ) : null}
          </div>
        </>
      ) : (
        <CustomModelForm
          key={view.kind === 'edit' ? view.model.model_name : 'add'}
          editing={view.kind === 'edit' ? view.model : null}
          existing={list}
          onBack={() => setView({ kind: 'list' })}
          onSaved={(saved, previous) => {
            if (previous && previous !== saved.model_name) onRenamed?.(previous, saved.model_name);
            setView({ kind: 'list' });
          }}
        />
      )}
    </Modal>
  );
}
