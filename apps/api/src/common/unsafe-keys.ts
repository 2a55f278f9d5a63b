import type { FieldProblem } from '@taleloom/contracts';

/** Keys that would reach an object's prototype if some code copied them; no DTO has them. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** No request body of this API is nested nearly this deep; deeper ones are refused before any code walks them. */
export const MAX_INPUT_DEPTH = 16;

/**
 * The first unsafe thing in a request body or query: a `__proto__`/`constructor`/`prototype` key
 * (prototype pollution), a MongoDB operator key (`$gt`, `$where`, ...: no DTO has such a field, so an
 * operator can never reach a query, not even through a field a DTO skips), or nesting deeper than
 * MAX_INPUT_DEPTH (a stack-exhausting walk). Named by the field that holds it.
 */
export function unsafeInput(root: unknown): FieldProblem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_INPUT_DEPTH) return { field: path, constraints: [`nested deeper than ${MAX_INPUT_DEPTH} levels`] };
    for (const key of Object.keys(value)) {
      if (PROTOTYPE_KEYS.has(key)) return { field: path || key, constraints: [`property ${key} is not allowed`] };
      if (key.startsWith('$')) return { field: path || key, constraints: [`operator ${key} is not allowed`] };
      stack.push({ value: (value as Record<string, unknown>)[key], path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return null;
}
