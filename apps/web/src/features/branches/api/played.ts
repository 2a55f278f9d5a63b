import type { QueryClient } from '@tanstack/react-query';
import type { BranchesData, BranchSwitchData } from '@taleloom/contracts';
import { branchKeys } from './branch-keys';

/**
 * The story plays another branch now: its list is the answer's, and everything cached about the story
 * (its record, pictures, tasks: other features' queries, matched by the story's id in their keys) is
 * fetched again.
 */
export function played(queryClient: QueryClient, storyId: string, data: BranchSwitchData): Promise<void> {
  const { story: _story, ...list } = data;
  queryClient.setQueryData<BranchesData>(branchKeys.list(storyId), list);
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey.includes(storyId) && query.queryKey[0] !== branchKeys.all[0] });
}
