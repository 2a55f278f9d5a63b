import type { CheckStoryData, StoryListItem } from '@taleloom/contracts';
import { formatDateTime } from '../../../lib/intl-format';

type Titled = Pick<StoryListItem, 'name' | 'level' | 'clonedFrom'>;

/** `name`, or `S{clonedFrom} name V{level}` for a clone; an empty name shows as `untitled`. */
export function formatStoryTitle(story: Titled, untitled: string): string {
  const name = story.name.trim() || untitled;
  if (!story.level) return name;
  const source = story.clonedFrom !== null && story.clonedFrom !== undefined ? `S${story.clonedFrom} ` : '';
  return `${source}${name} V${story.level}`;
}

/** `first ... last`; just the first line when there is no other, empty when there is no text. */
export function formatSnippet(story: Pick<StoryListItem, 'first-line' | 'last-line'>): string {
  const first = story['first-line'].trim();
  const last = story['last-line'].trim();
  if (first && last) return `${first} ... ${last}`;
  return first || last;
}

export type StoryTab = 'mine' | 'public';
export type StoryBadge = 'pinned' | 'restorePoint' | 'latest' | 'myStory' | 'public';

/** The badges of a list item, in display order (the time is shown beside them). */
export function storyBadges(
  story: Pick<StoryListItem, 'pinToTop' | 'recovery_point' | 'permission' | 'userID'>,
  context: { tab: StoryTab; index: number; myUserID: string | null | undefined },
): StoryBadge[] {
  const badges: StoryBadge[] = [];
  if (story.pinToTop) badges.push('pinned');
  // The owner's own state: never on someone else's story.
  if (story.recovery_point && context.myUserID && story.userID === context.myUserID) badges.push('restorePoint');
  if (context.index === 0) badges.push('latest');
  if (context.tab === 'public' && context.myUserID && story.userID === context.myUserID) badges.push('myStory');
  if (story.permission === '1') badges.push('public');
  return badges;
}

/** Seconds since the epoch as a local date and time, in the interface language. */
export function formatStoryTime(seconds: number, language: string): string {
  return formatDateTime(seconds * 1000, language);
}

export type OpenDecision =
  | { kind: 'load' }
  | { kind: 'clone'; userID: string; storyID: string }
  | { kind: 'refuse' };

/**
 * Opening a story (spec section 4): their own loads; someone else's public story is cloned
 * (then the user goes to the clone after 1 s); anything else is refused (error, back to /stories).
 */
export function decideOpen(id: string, check: CheckStoryData | null): OpenDecision {
  if (!check) return { kind: 'refuse' };
  if (check.userHasStory) return { kind: 'load' };
  if (check.isPublic) return { kind: 'clone', userID: check.originUserID, storyID: id };
  return { kind: 'refuse' };
}

/** Starting from my list: a story with a restore point is cloned first, so the restore point stays intact. */
export const needsCloneBeforePlay = (story: Pick<StoryListItem, 'recovery_point'>) => story.recovery_point;

/** The link others open to get their own copy of a public story. */
export const shareLink = (origin: string, id: string) => `${origin}/play?id=${encodeURIComponent(id)}`;

/** Delays of spec section 9. */
export const CLONE_REDIRECT_DELAY_MS = 1000;
export const EMPTY_MINE_SWITCH_DELAY_MS = 1000;
export const COPY_ICON_RESET_MS = 1000;
