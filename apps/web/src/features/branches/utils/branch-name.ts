import type { BranchView } from '@taleloom/contracts';
import type { TFunction } from 'i18next';

/** A branch's name as shown: its own, else "Main line" for the original line and "Branch {no}" for the others. */
export function branchName(branch: Pick<BranchView, 'name' | 'no'>, t: TFunction): string {
  if (branch.name.trim()) return branch.name;
  return branch.no === 1 ? t('branches.mainLine') : t('branches.defaultName', { no: branch.no });
}
