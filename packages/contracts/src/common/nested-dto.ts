/**
 * A plain nested object as an instance of its DTO class (what class-validator's @ValidateNested walks);
 * anything else is left as it is, for validation to refuse. Used in @Transform instead of
 * class-transformer's @Type, which needs reflect-metadata in the browser.
 */
export const asDto =
  <T extends object>(make: () => T) =>
  (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.assign(make(), value) : value;
