import { DownloadOutlined } from '@ant-design/icons';
import { charCount, EXPORT_FORMATS, HTML_EXPORT_CONFIRM_CHARS, type ExportFormat } from '@taleloom/contracts';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { saveBlob } from '../../../lib/download';
import { useExportStory } from '../api/export-story';
import { fallbackFileName } from '../utils/file-name';
import './files.css';
import { useFeedback } from '../../../components/feedback';

export interface ExportMenuProps {
  /** The story text to export. */
  content: string;
  /** The story name (names the file); empty means untitled. */
  name: string;
  /** The story the text comes from: its pictures go into html and docx exports. */
  storyId?: string;
}

/** The play screen's export menu: one item per format; a long HTML export asks first (spec section 5). */
export function ExportMenu({ content, name, storyId }: ExportMenuProps) {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const exporter = useExportStory();

  const run = (format: ExportFormat) => {
    exporter.mutate(
      // A story's own text is exported by its id: the server has it, and a long one is not uploaded.
      storyId ? { format, name: name || undefined, story_id: storyId } : { content, format, name: name || undefined },
      {
        onSuccess: ({ blob, fileName }) => {
          const finalName = fileName ?? fallbackFileName(t('app.brand'), name || t('stories.untitled'), format);
          saveBlob(blob, finalName);
          void message.success(t('files.export.done', { name: finalName }));
        },
        onError: (error) => void message.error(getErrorMessage(error, t)),
      },
    );
  };

  const choose = (format: ExportFormat) => {
    const length = charCount(content);
    if (format === 'html' && length > HTML_EXPORT_CONFIRM_CHARS) {
      void modal.confirm({
        title: t('files.export.htmlConfirmTitle'),
        content: t('files.export.htmlConfirmBody', { count: length, limit: HTML_EXPORT_CONFIRM_CHARS }),
        okText: t('files.export.exportAnyway'),
        cancelText: t('common.cancel'),
        onOk: () => run(format),
      });
      return;
    }
    run(format);
  };

  return (
    <Dropdown
      trigger={['click']}
      // Left undefined when there is text, so a surrounding disabled context (the play screen while
      // generating or editing) still disables the button.
      disabled={!content || undefined}
      menu={{
        'aria-label': t('files.export.menuLabel'),
        items: EXPORT_FORMATS.map((format) => ({ key: format, label: t(`files.export.formats.${format}`), 'data-testid': `export-${format}` })),
        onClick: ({ key }) => choose(key as ExportFormat),
      }}
    >
      <Button icon={<DownloadOutlined aria-hidden="true" />} loading={exporter.isPending} className="tl-export-menu" data-testid="toolbar-export">
        {t('files.export.button')}
      </Button>
    </Dropdown>
  );
}
