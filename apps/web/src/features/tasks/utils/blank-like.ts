/**
 * A new target in the shape of `first` with blank or zero values (spec section 5): text becomes '',
 * numbers 0, booleans false; null stays null.
 */
export function blankLike<T extends object>(first: T): T {
  return Object.fromEntries(
    Object.entries(first).map(([key, value]) => [
      key,
      typeof value === 'string' ? '' : typeof value === 'number' ? 0 : typeof value === 'boolean' ? false : value === null ? null : Array.isArray(value) ? [] : value,
    ]),
  ) as T;
}
