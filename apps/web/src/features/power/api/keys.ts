/** Query keys of the power feature. */
export const powerKeys = {
  all: ['power'] as const,
  checkInStatus: () => ['power', 'check-in-status'] as const,
  userPoints: (type: string, page: number, pageSize: number) => ['power', 'user-points', type, page, pageSize] as const,
};

// The auth feature's user-info query; invalidating it refreshes the balance in the user menu.
export const USER_INFO_QUERY_KEY = ['user-info'] as const;
