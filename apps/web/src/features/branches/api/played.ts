import type { QueryClient } from '@tanstack/react-query';
import type { BranchesData, BranchSwitchData } from '@taleloom/contracts';
import { branchKeys } from './branch-keys';

/**
 * The story plays another branch now: its list is the answer's, and everything cached about the story
 * (its record, pictures, tasks: other features' queries, matched by the story's id in their keys) and
 * the story lists are fetched again.
 */
export function played(queryClient: QueryClient, storyId: string, data: BranchSwitchData): Promise<void> {
  const { story: _story, ...list } = data;
  queryClient.setQueryData<BranchesData>(branchKeys.list(storyId), list);
  // Lists too: a story's snippet there is its played branch's.
  return queryClient.invalidateQueries({
    predicate: (query) => (query.queryKey.includes(storyId) || query.queryKey[1] === 'list') && query.queryKey[0] !== branchKeys.all[0],
  });
}
