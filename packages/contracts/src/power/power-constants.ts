/** Power awarded by the daily check-in (spec section 9). */
export const DAILY_CHECK_IN_POWER = 5000;

/** Share of what others spend on a clone of a public story that goes to its author, in percent. */
export const ROYALTY_PERCENT = 10;

/** Page size of the points record table, and the largest one a client may ask for. */
export const POINTS_PAGE_SIZE = 10;
export const POINTS_PAGE_SIZE_MAX = 50;

/**
 * Reasons the product writes into the points record. The web shows a translated channel text for each;
 * a reason it does not know is shown raw.
 */
export const PowerReason = {
  /** The daily check-in. */
  DAILY_CHECK_IN: 'daily_check_in',
  /** Spending on a story (negative) or the royalty of a public story (positive); carries the story name. */
  STORY: 'story',
  /** An invitee registered and verified a phone. */
  INVITE_USER_REGISTER: 'invite_user_register',
  /** The first phone binding. */
  INIT_POINTS: 'init_points',
} as const;
export type PowerReason = (typeof PowerReason)[keyof typeof PowerReason];
