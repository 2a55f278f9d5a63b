import { ErrorCode } from '@taleloom/contracts';
import type { NextFunction, Request, Response } from 'express';
import { AppException } from './app-exception';

// Body-parser failures become coded errors here; Nest would otherwise turn them into a bare 400 or,
// for an unknown Content-Encoding, a gzip body that is not gzip or too many form fields, a 500.
export function bodyParserErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const type = (err as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return next(new AppException(ErrorCode.INVALID_JSON));
    case 'entity.too.large':
    case 'parameters.too.many':
      return next(new AppException(ErrorCode.PAYLOAD_TOO_LARGE));
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return next(new AppException(ErrorCode.UNSUPPORTED_MEDIA_TYPE));
    default:
      // Anything else that went wrong while reading the body (a broken compressed stream, an aborted
      // or miscounted request) is the client's: the exception filter maps its 4xx status.
      next(err);
  }
}

/** Keys that would reach an object's prototype if some code copied them; no DTO has them. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** No request body of this API is nested nearly this deep; deeper ones are refused before any code walks them. */
export const MAX_BODY_DEPTH = 16;

/**
 * Refuses bodies and queries that carry `__proto__`/`constructor`/`prototype` keys (prototype
 * pollution), MongoDB operator keys (`$gt`, `$where`, ...: no DTO has such a field, so an operator can
 * never reach a query, not even through a field a DTO skips), or that nest deeper than MAX_BODY_DEPTH
 * (a stack-exhausting walk), with 400 VALIDATION_FAILED naming the field.
 */
export function rejectUnsafeKeys(req: Request, _res: Response, next: NextFunction): void {
  const problem = unsafeKey(req.body, 'body') ?? unsafeKey(req.query, 'query');
  if (!problem) return next();
  next(new AppException(ErrorCode.VALIDATION_FAILED, [{ field: problem.field, constraints: [problem.constraint] }]));
}

function unsafeKey(root: unknown, name: string): { field: string; constraint: string } | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_BODY_DEPTH) return { field: path, constraint: `${name} nested deeper than ${MAX_BODY_DEPTH} levels` };
    for (const key of Object.keys(value)) {
      const field = path ? `${path}.${key}` : key;
      if (PROTOTYPE_KEYS.has(key)) return { field, constraint: `property ${key} is not allowed` };
      if (key.startsWith('$')) return { field, constraint: `operator ${key} is not allowed` };
      stack.push({ value: (value as Record<string, unknown>)[key], path: field, depth: depth + 1 });
    }
  }
  return null;
}
