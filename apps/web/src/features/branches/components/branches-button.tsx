import { BranchesOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyDialog } from '../../../components/lazy-dialog';

// The list's code loads when it is first opened, not with the play screen.
const BranchesDialog = lazyDialog(() => import('./branches-dialog').then((m) => m.BranchesDialog));

/** The play toolbar's branches button and its list (how many lines the story has shows in the list's title). */
export function BranchesButton({ storyId, disabled }: { storyId: string; disabled: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<BranchesOutlined aria-hidden="true" />} onClick={() => setOpen(true)} data-testid="toolbar-branches">
        <span className="tl-play-toolbar__label">{t('branches.button')}</span>
      </Button>
      <BranchesDialog storyId={storyId} open={open} onClose={() => setOpen(false)} disabled={disabled} />
    </>
  );
}
