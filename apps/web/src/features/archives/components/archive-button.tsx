import { SaveOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyDialog } from '../../../components/lazy-dialog';

// The dialog's code (its table) loads when it is first opened, not with the play screen.
const ArchiveDialog = lazyDialog(() => import('./archive-dialog').then((m) => m.ArchiveDialog));

/** The toolbar's record (archive) button and its dialog. */
export function ArchiveButton({ storyId }: { storyId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<SaveOutlined aria-hidden="true" />} onClick={() => setOpen(true)} data-testid="toolbar-archive">
        {t('files.archive.button')}
      </Button>
      <ArchiveDialog storyId={storyId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
