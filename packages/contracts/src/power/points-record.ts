/** One row of the points record (spec section 3 "Points record"). */
export interface PointsRecord {
  /** Why the balance moved, e.g. `daily_check_in` or `story` (see `PowerReason`). */
  reason: string;
  /** Signed amount: positive for income, negative for expense. */
  points: number;
  /** ISO 8601 instant. */
  operationAt: string;
  storyInfo: { storyName: string | null };
}

export interface Pagination {
  page: number;
  pageSize: number;
  totalPages: number;
  total: number;
}

/** `data` of `GET /api/user/user-points`. */
export interface PointsPage {
  records: PointsRecord[];
  pagination: Pagination;
}

/** `data` of `POST /api/user/check-in`. */
export interface CheckInData {
  /** Power this check-in gave. */
  awarded: number;
  /** The balance after it. */
  points: number;
}

/** `data` of `GET /api/user/check-in-status`. */
export interface CheckInStatusData {
  /** True when the user has checked in today (in the configured time zone). */
  dailyCheckinStatus: boolean;
}
