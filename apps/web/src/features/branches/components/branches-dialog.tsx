import { CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { BRANCH_NAME_MAX_LENGTH, type BranchView } from '@taleloom/contracts';
import { Button, Input, Modal, Popconfirm, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useDeleteBranch } from '../api/delete-branch';
import { useBranches } from '../api/get-branches';
import { useRenameBranch } from '../api/rename-branch';
import { useSwitchBranch } from '../api/switch-branch';
import { branchName } from '../utils/branch-name';
import './branches.css';
import { useFeedback } from '../../../components/feedback';

export interface BranchesDialogProps {
  storyId: string;
  open: boolean;
  onClose: () => void;
  /** While a turn is being written (or the text edited), nothing can be switched or deleted. */
  disabled: boolean;
}

// The end of the text a branch forks after, short enough for one line of the list.
const EXCERPT_CHARS = 36;
const tail = (text: string) => {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > EXCERPT_CHARS ? `…${chars.slice(-EXCERPT_CHARS).join('')}` : chars.join('');
};

/**
 * The branches of a story: each line with its name, where it forks, its length and when it was last
 * played; play (switch to) it, rename it, delete it (never the one being played, nor the last one).
 */
export function BranchesDialog({ storyId, open, onClose, disabled }: BranchesDialogProps) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const branches = useBranches(storyId, open);
  const play = useSwitchBranch(storyId);
  const rename = useRenameBranch(storyId);
  const remove = useDeleteBranch(storyId);
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const list = branches.data?.branches ?? [];
  const byId = new Map(list.map((b) => [b.id, b]));
  const showError = (error: unknown) => void message.error(getErrorMessage(error, t));

  // A promise, not mutate's callbacks: the play screen starts afresh on the branch (this dialog with it).
  const onPlay = (branch: BranchView) =>
    void play.mutateAsync(branch.id).then(
      () => {
        void message.success(t('branches.switched', { name: branchName(branch, t) }));
        onClose();
      },
      showError,
    );
  const onRename = () => {
    if (!editing) return;
    rename.mutate(
      { branchId: editing.id, name: editing.name.trim() },
      { onSuccess: () => (setEditing(null), void message.success(t('branches.renamed'))), onError: showError },
    );
  };
  const onDelete = (branch: BranchView) =>
    remove.mutate(branch.id, { onSuccess: () => void message.success(t('branches.deleted')), onError: showError });

  const forkLine = (branch: BranchView) => {
    const fork = branch.forkedFrom;
    if (!fork) return t('branches.original');
    const parent = byId.get(fork.parentId);
    return t('branches.forkedFrom', { parent: parent ? branchName(parent, t) : t('branches.deletedParent'), excerpt: tail(fork.excerpt) });
  };
  const playedLine = (branch: BranchView) =>
    branch.lastPlayedAt ? t('branches.lastPlayed', { time: new Date(branch.lastPlayedAt).toLocaleString(i18n.language) }) : t('branches.neverPlayed');

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={640}
      title={
        <span className="tl-branches__title">
          {t('branches.title')}
          {branches.data ? <Tag>{t('branches.count', { count: list.length, max: branches.data.max })}</Tag> : null}
        </span>
      }
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" className="tl-branches__intro">
        {t('branches.intro')}
      </Typography.Paragraph>
      {branches.isPending ? <Skeleton active paragraph={{ rows: 3 }} /> : null}
      <ul className="tl-branches__list" data-testid="branch-list">
        {list.map((branch) => {
          const name = branchName(branch, t);
          const renaming = editing?.id === branch.id;
          return (
            <li key={branch.id} className={`tl-branches__item ${branch.current ? 'tl-branches__item--current' : ''}`} data-testid="branch-item" data-current={branch.current}>
              <div className="tl-branches__body">
                {renaming ? (
                  <span className="tl-branches__rename">
                    <Input
                      size="small"
                      autoFocus
                      value={editing.name}
                      maxLength={BRANCH_NAME_MAX_LENGTH}
                      placeholder={branchName({ name: '', no: branch.no }, t)}
                      aria-label={t('branches.name')}
                      onChange={(e) => setEditing({ id: branch.id, name: e.target.value })}
                      onPressEnter={onRename}
                      data-testid="branch-name-input"
                    />
                    <Button size="small" type="primary" icon={<CheckOutlined aria-hidden="true" />} aria-label={t('branches.save')} loading={rename.isPending} onClick={onRename} data-testid="branch-name-save" />
                    <Button size="small" icon={<CloseOutlined aria-hidden="true" />} aria-label={t('common.cancel')} onClick={() => setEditing(null)} />
                  </span>
                ) : (
                  <span className="tl-branches__name" data-testid="branch-name">
                    {name}
                    {branch.current ? <Tag color="purple">{t('branches.playing')}</Tag> : null}
                  </span>
                )}
                <span className="tl-branches__meta">{forkLine(branch)}</span>
                <span className="tl-branches__meta">
                  {t('branches.length', { count: branch.length })}
                  {branch.current ? null : ` · ${playedLine(branch)}`}
                </span>
              </div>
              <div className="tl-branches__actions">
                {branch.current ? null : (
                  <Button type="primary" size="small" disabled={disabled} loading={play.isPending && play.variables === branch.id} onClick={() => onPlay(branch)} data-testid="branch-play">
                    {t('branches.play')}
                  </Button>
                )}
                <Tooltip title={t('branches.rename')}>
                  <Button size="small" icon={<EditOutlined aria-hidden="true" />} aria-label={t('branches.rename')} onClick={() => setEditing({ id: branch.id, name: branch.name })} data-testid="branch-rename" />
                </Tooltip>
                <Popconfirm
                  title={t('branches.deleteTitle', { name })}
                  description={t('branches.deleteBody')}
                  okText={t('branches.delete')}
                  okButtonProps={{ danger: true }}
                  cancelText={t('common.cancel')}
                  onConfirm={() => onDelete(branch)}
                  disabled={branch.current || disabled}
                >
                  <Tooltip title={branch.current ? t('branches.cannotDeletePlaying') : t('branches.delete')}>
                    <Button size="small" danger icon={<DeleteOutlined aria-hidden="true" />} aria-label={t('branches.delete')} disabled={branch.current || disabled} data-testid="branch-delete" />
                  </Tooltip>
                </Popconfirm>
              </div>
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
