import { BranchesOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBranches } from '../api/get-branches';
import { BranchesDialog } from './branches-dialog';

/** The play toolbar's branches button (with how many lines the story has) and its list. */
export function BranchesButton({ storyId, disabled }: { storyId: string; disabled: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const branches = useBranches(storyId);
  const count = branches.data?.branches?.length ?? 0;
  return (
    <>
      <Badge count={count > 1 ? count : 0} size="small" color="#6366f1" offset={[-4, 2]}>
        <Button icon={<BranchesOutlined aria-hidden="true" />} onClick={() => setOpen(true)} data-testid="toolbar-branches">
          <span className="tl-play-toolbar__label">{t('branches.button')}</span>
        </Button>
      </Badge>
      <BranchesDialog storyId={storyId} open={open} onClose={() => setOpen(false)} disabled={disabled} />
    </>
  );
}
