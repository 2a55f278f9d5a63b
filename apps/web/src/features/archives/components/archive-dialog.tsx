import { ARCHIVE_SLOT_COUNT, PUBLIC_ARCHIVE_INDEX, type ArchiveEntry } from '@taleloom/contracts';
import { Alert, Button, Empty, Modal, Segmented, Table, Typography, type ButtonProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useArchives } from '../api/get-archives';
import { useLoadArchive } from '../api/load-archive';
import { useSaveArchive } from '../api/save-archive';
import './archives.css';
import { useFeedback } from '../../../components/feedback';
import { formatNumber } from '../../../lib/intl-format';

interface SlotRow {
  index: number;
  entry: ArchiveEntry | null;
}

export interface ArchiveDialogProps {
  storyId: string;
  open: boolean;
  onClose: () => void;
}

const PAGE_SIZE = 10;

/**
 * The archive dialog: 999 slots (0..998, shown as 1..999) with time and word count, plus the public version.
 * Saving over a slot with content asks first; loading needs a slot with content (spec section 4).
 */
export function ArchiveDialog({ storyId, open, onClose }: ArchiveDialogProps) {
  const { t, i18n } = useTranslation();
  const { message, modal } = useFeedback();
  const archives = useArchives(storyId, open);
  const save = useSaveArchive();
  const load = useLoadArchive();
  const [view, setView] = useState<'saved' | 'all'>('all');
  const [selected, setSelected] = useState<number | null>(null);
  const [page, setPage] = useState(1);

  const byIndex = useMemo(() => new Map((archives.data ?? []).map((a) => [a.archive_index, a])), [archives.data]);
  const rows = useMemo<SlotRow[]>(() => {
    const publicRow = byIndex.has(PUBLIC_ARCHIVE_INDEX) ? [{ index: PUBLIC_ARCHIVE_INDEX, entry: byIndex.get(PUBLIC_ARCHIVE_INDEX)! }] : [];
    if (view === 'saved') return (archives.data ?? []).map((entry) => ({ index: entry.archive_index, entry }));
    return [...publicRow, ...Array.from({ length: ARCHIVE_SLOT_COUNT }, (_, index) => ({ index, entry: byIndex.get(index) ?? null }))];
  }, [archives.data, byIndex, view]);

  const slotName = (index: number) => (index === PUBLIC_ARCHIVE_INDEX ? t('files.archive.publicSlot') : t('files.archive.slotName', { n: index + 1 }));
  const formatTime = (seconds: number) => new Date(seconds * 1000).toLocaleString(i18n.language);
  const chosen = selected === null ? null : { index: selected, entry: byIndex.get(selected) ?? null };

  const doSave = (index: number) =>
    save.mutate(
      { story_id: storyId, archive_index: index },
      {
        onSuccess: () => void message.success(t('files.archive.saved', { slot: slotName(index) })),
        onError: (error) => void message.error(getErrorMessage(error, t)),
      },
    );

  const onSave = () => {
    if (!chosen || chosen.index < 0) return;
    if (!chosen.entry) return doSave(chosen.index);
    void modal.confirm({
      title: t('files.archive.overwriteTitle', { slot: slotName(chosen.index) }),
      content: t('files.archive.overwriteBody', { time: formatTime(chosen.entry.time), count: chosen.entry.current_word_count }),
      okText: t('files.archive.overwrite'),
      okButtonProps: { danger: true, 'data-testid': 'archive-overwrite-ok' } as ButtonProps,
      cancelText: t('common.cancel'),
      onOk: () => doSave(chosen.index),
    });
  };

  const onLoad = () => {
    if (!chosen?.entry) return;
    const { entry, index } = chosen;
    void modal.confirm({
      title: t('files.archive.loadTitle', { slot: slotName(index) }),
      content: t('files.archive.loadBody'),
      okText: t('files.archive.load'),
      okButtonProps: { 'data-testid': 'archive-load-ok' } as ButtonProps,
      cancelText: t('common.cancel'),
      onOk: () =>
        load.mutateAsync({ archive_id: entry._id }).then(
          () => {
            void message.success(t('files.archive.loaded', { slot: slotName(index) }));
            onClose();
          },
          (error: unknown) => void message.error(getErrorMessage(error, t)),
        ),
    });
  };

  const columns: ColumnsType<SlotRow> = [
    { title: t('files.archive.slot'), key: 'slot', render: (_, row) => <span data-testid="archive-slot-name">{slotName(row.index)}</span> },
    {
      title: t('files.archive.time'),
      key: 'time',
      render: (_, row) => (row.entry ? formatTime(row.entry.time) : <Typography.Text type="secondary">{t('files.archive.empty')}</Typography.Text>),
    },
    { title: t('files.archive.words'), key: 'words', align: 'right', render: (_, row) => (row.entry ? formatNumber(row.entry.current_word_count, i18n.language) : '—') },
    {
      title: t('files.archive.ending'),
      key: 'ending',
      responsive: ['md'],
      ellipsis: true,
      render: (_, row) => <span className="tl-archive__ending">{row.entry?.story_ending ?? ''}</span>,
    },
  ];

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('files.archive.title')}
      width={760}
      destroyOnHidden
      // On a phone the slots scroll inside the dialog and its buttons stay on screen (archives.css).
      classNames={{ body: 'tl-archive__body' }}
      data-testid="archive-dialog"
      footer={
        <div className="tl-archive__footer">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            onClick={onLoad}
            disabled={!chosen?.entry}
            title={chosen?.entry ? undefined : t('files.archive.loadNeedsContent')}
            loading={load.isPending}
            data-testid="archive-load"
          >
            {t('files.archive.load')}
          </Button>
          <Button
            type="primary"
            onClick={onSave}
            disabled={!chosen || chosen.index < 0}
            title={chosen && chosen.index >= 0 ? undefined : t('files.archive.saveNeedsSlot')}
            loading={save.isPending}
            data-testid="archive-save"
          >
            {t('files.archive.save')}
          </Button>
        </div>
      }
    >
      <Typography.Paragraph type="secondary">{t('files.archive.intro')}</Typography.Paragraph>
      <div className="tl-archive__toolbar">
        <Segmented
          value={view}
          onChange={(value) => {
            setView(value as 'saved' | 'all');
            setPage(1);
          }}
          options={[
            { value: 'all', label: t('files.archive.viewAll') },
            { value: 'saved', label: t('files.archive.viewSavedCount', { count: archives.data?.length ?? 0 }) },
          ]}
          data-testid="archive-view"
        />
      </div>
      {archives.isError ? <Alert type="error" showIcon title={getErrorMessage(archives.error, t)} /> : null}
      <Table<SlotRow>
        size="small"
        rowKey="index"
        loading={archives.isPending}
        columns={columns}
        dataSource={rows}
        locale={{ emptyText: <Empty description={t('files.archive.noSaves')} /> }}
        rowSelection={{
          type: 'radio',
          selectedRowKeys: selected === null ? [] : [selected],
          onChange: (keys) => setSelected((keys[0] as number | undefined) ?? null),
          getCheckboxProps: (row) => ({ 'aria-label': t('files.archive.select', { slot: slotName(row.index) }) }) as object,
        }}
        onRow={(row) => ({ onClick: () => setSelected(row.index), 'data-testid': `archive-row-${row.index}` }) as object}
        pagination={{ current: page, pageSize: PAGE_SIZE, onChange: setPage, showSizeChanger: false, showQuickJumper: view === 'all', size: 'small' }}
        scroll={{ x: 'max-content' }}
      />
    </Modal>
  );
}
