import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { LoreBookInput, LoreImportMode } from '@taleloom/contracts';
import { Button, Modal, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../../lib/download';
import { getErrorMessage } from '../../../lib/error-message';
import { checkUpload, uploadParse } from '../../../lib/upload-parse';
import { useExportLore, useImportLore } from '../api/lore-files';
import { useFeedback } from '../../../components/feedback';

/** Files that can carry lore: World Info and lore book JSON, character cards, txt/md with lore blocks. */
const LORE_FILES = ['.json', '.png', '.txt', '.md'];

interface Pending {
  fileName: string;
  book: LoreBookInput;
}

/**
 * Lore in and out of files: import a lore book (SillyTavern World Info, TaleLoom's export, a bare
 * character_book), a character card's book or a txt/md file's lore blocks, after the story's entries or
 * instead of them; export the story's lore as a World Info file.
 */
export function LoreFileActions({ storyId, entries }: { storyId: string; entries: number }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const importer = useImportLore(storyId);
  const exporter = useExportLore(storyId);
  const [reading, setReading] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const showError = (error: unknown) => void message.error(getErrorMessage(error, t));

  const read = async (file: File) => {
    const refused = checkUpload(file, LORE_FILES);
    if (refused) return showError(refused);
    setReading(true);
    try {
      const parsed = await uploadParse(file);
      if (!parsed.lore?.entries.length) {
        void message.warning(t('lore.files.noLore', { name: parsed.fileName }));
        return;
      }
      // Nothing to keep or replace: straight in.
      if (entries === 0) await apply({ fileName: parsed.fileName, book: parsed.lore }, 'append');
      else setPending({ fileName: parsed.fileName, book: parsed.lore });
    } catch (error) {
      showError(error);
    } finally {
      setReading(false);
    }
  };

  const apply = async (chosen: Pending, mode: LoreImportMode) => {
    try {
      await importer.mutateAsync({ book: chosen.book, mode });
      setPending(null);
      void message.success(t('lore.files.imported', { count: chosen.book.entries.length, name: chosen.fileName }));
    } catch (error) {
      showError(error);
    }
  };

  const download = () =>
    exporter.mutate(undefined, {
      onSuccess: ({ blob, fileName }) => {
        const name = fileName ?? 'lore.json';
        saveBlob(blob, name);
        void message.success(t('lore.files.exported', { name }));
      },
      onError: showError,
    });

  return (
    <div className="tl-lore__files">
      <Upload
        accept={LORE_FILES.join(',')}
        multiple={false}
        showUploadList={false}
        beforeUpload={(file) => {
          void read(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined aria-hidden="true" />} loading={reading || importer.isPending} data-testid="lore-import">
          {t('lore.files.import')}
        </Button>
      </Upload>
      <Button icon={<DownloadOutlined aria-hidden="true" />} onClick={download} loading={exporter.isPending} disabled={entries === 0} data-testid="lore-export">
        {t('lore.files.export')}
      </Button>
      <Typography.Text type="secondary" className="tl-lore__files-hint">
        {t('lore.files.hint')}
      </Typography.Text>
      <Modal
        open={pending !== null}
        title={t('lore.files.chooseTitle', { count: pending?.book.entries.length ?? 0, name: pending?.fileName ?? '' })}
        onCancel={() => setPending(null)}
        data-testid="lore-import-choice"
        footer={[
          <Button key="cancel" onClick={() => setPending(null)}>
            {t('common.cancel')}
          </Button>,
          <Button key="replace" danger onClick={() => pending && void apply(pending, 'replace')} loading={importer.isPending} data-testid="lore-import-replace">
            {t('lore.files.replace')}
          </Button>,
          <Button key="append" type="primary" onClick={() => pending && void apply(pending, 'append')} loading={importer.isPending} data-testid="lore-import-append">
            {t('lore.files.append')}
          </Button>,
        ]}
      >
        <Typography.Paragraph>{t('lore.files.chooseBody', { count: entries })}</Typography.Paragraph>
      </Modal>
    </div>
  );
}
