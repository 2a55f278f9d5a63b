import fc from 'fast-check';
import { unsafeInput } from '../../src/common/unsafe-keys';
import type { JsonSchema } from './dto-schemas';

/** The longest generated string: past the DTO limits (200, 10 000, 100 000 ...) but well under the body limit. */
const HUGE = 120_000;

/** A value that satisfies one property's schema (enum, pattern, length, range), so deeper code is reached. */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'string': {
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter((s) => fits(s, schema));
        } catch {
          // A pattern fast-check cannot read: plain strings of the right length.
        }
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40), unit: 'grapheme' });
    }
    case 'array':
      return fc.array(validValue(schema.items ?? {}), { maxLength: 3 });
    default:
      // Any JSON, but none the injection check refuses ($-operator or prototype keys): the body stays acceptable.
      return fc.jsonValue({ maxDepth: 1 }).filter((v) => unsafeInput(v) === null);
  }
}

const fits = (s: string, schema: JsonSchema) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity);

/** A body that the DTO accepts (optional fields sometimes left out). */
export function validBody(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validValue(v)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in props) }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Operator objects of NoSQL injection. */
export const OPERATORS: readonly Record<string, unknown>[] = [
  { $gt: '' },
  { $ne: null },
  { $regex: '.*' },
  { $where: 'sleep(1000) || true' },
  { $in: ['a', 'b'] },
  { $exists: true },
];

/** Keys that have bitten JavaScript servers: prototype pollution, operators, odd unicode, empties. */
export const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', '$where', '$gt', 'toString', 'hasOwnProperty', '', ' ', '\u0000', '𝕏', '键', 'a.b', 'id[$ne]'];

/** Values of the wrong type, shape or size for any field. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.5, '', ' ', '\u0000', '\uFEFF', '\uD800', [], {}, [[]], [null]),
  fc.constantFrom(...OPERATORS),
  fc.constantFrom(...NASTY_KEYS).map((k) => JSON.parse(`{${JSON.stringify(k)}: {"polluted": true}}`) as unknown),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 64 }),
  fc.integer({ min: 1_000, max: HUGE }).chain((n) => fc.constantFrom('x', '字', '😀', '<', '\\').map((c) => c.repeat(n))),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** JSON text that nests arrays or objects `depth` deep (as text: too deep for JSON.stringify in the test). */
export const deepJson = (maxDepth: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: 10, max: maxDepth }), fc.boolean())
    .map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

const deepValue: fc.Arbitrary<unknown> = deepJson(2_000).map((text) => JSON.parse(text) as unknown);

/** A raw request body with the headers that say how to read it: content types, charsets, encodings. */
export const rawRequest = fc.record({
  body: fc.oneof(
    deepJson(150_000),
    fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
    fc.constantFrom('', '{', '{"a":1', 'null', '"x"', '[]', '1e999', '{"a":1}{"b":2}', '\uD800', 'a=1&a=2&b[c]=3&__proto__[x]=1', Array.from({ length: 2000 }, (_, i) => `k${i}=1`).join('&')),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=utf-16',
    'application/json; charset=koi8-r',
    'application/json; charset=no-such-charset',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'text/plain',
    'application/octet-stream',
    '',
  ),
  contentEncoding: fc.constantFrom(undefined, 'identity', 'gzip', 'deflate', 'br', 'bogus'),
});

/**
 * A malformed body for a DTO: one field of the wrong type, an extra nasty key, or a whole body that is
 * not an object at all. Parsed with JSON.parse where keys like `__proto__` must stay own properties.
 */
export function malformedBody(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const base = schema ? validBody(schema) : fc.constant<Record<string, unknown>>({});
  const fields = Object.keys(schema?.properties ?? {});
  const withField = fields.length
    ? fc.tuple(base, fc.constantFrom(...fields), nastyValue).map(([b, f, v]) => ({ ...b, [f]: v }))
    : base;
  const withKey = fc
    .tuple(base, fc.constantFrom(...NASTY_KEYS), nastyValue)
    .map(([b, k, v]) => JSON.parse(`${JSON.stringify(b).slice(0, -1)}${Object.keys(b).length ? ',' : ''}${JSON.stringify(k)}:${JSON.stringify(v ?? null)}}`) as unknown);
  return fc.oneof(
    { weight: 2, arbitrary: base },
    { weight: 4, arbitrary: withField },
    { weight: 2, arbitrary: withKey },
    { weight: 1, arbitrary: deepValue },
    { weight: 1, arbitrary: nastyValue },
  );
}

/** A query string for a query DTO: its fields with valid or nasty values, repeated keys, bracket keys. */
export function malformedQuery(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  const fields = [...Object.keys(schema?.properties ?? {}), 'id'];
  const key = fc.oneof(fc.constantFrom(...fields), fc.constantFrom(...NASTY_KEYS), fc.constantFrom(...fields).map((f) => `${f}[$ne]`));
  const value = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom('', '0', '-1', '1e9', '99999999999', 'true', 'null', '[object Object]', '%', '%E0%A4%A'),
    fc.integer({ min: 1, max: 4000 }).map((n) => 'q'.repeat(n)),
  );
  return fc.array(fc.tuple(key, value), { maxLength: 6 }).map((pairs) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${v.startsWith('%') ? v : encodeURIComponent(v)}`).join('&'),
  );
}
