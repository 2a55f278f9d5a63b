import { type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useCreateBranch } from '../api/create-branch';
import { branchName } from '../utils/branch-name';
import { useFeedback } from '../../../components/feedback';

/**
 * "Branch from here": asks first, then starts a new line of the story after the passage that ends at
 * `at` (in the played branch `fromBranch`'s text) and plays it; the old line stays under Branches.
 */
export function useBranchFrom(storyId: string, fromBranch: string): (at: number) => void {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const create = useCreateBranch(storyId);
  return (at: number) =>
    void modal.confirm({
      title: t('branches.forkTitle'),
      content: t('branches.forkBody'),
      okText: t('branches.forkOk'),
      okButtonProps: { 'data-testid': 'branch-fork-ok' } as ButtonProps,
      cancelText: t('common.cancel'),
      onOk: () =>
        create
          .mutateAsync({ at, from_branch: fromBranch })
          .then((data) => {
            const made = data.branches.find((b) => b.id === data.current);
            void message.success(t('branches.created', { name: made ? branchName(made, t) : '' }));
          })
          .catch((error: unknown) => void message.error(getErrorMessage(error, t))),
    });
}
