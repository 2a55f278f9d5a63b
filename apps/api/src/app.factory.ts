import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { join } from 'node:path';
import { ErrorCode } from '@taleloom/contracts';
import { AppModule } from './app.module';
import { AppException } from './common/app-exception';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { createValidationPipe } from './common/validation.pipe';
import { AppConfig } from './config/app-config';
import type { DatabaseHandle } from './database/embedded-database';
import { setupSwagger } from './swagger/swagger';

const EXPORT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** Builds the whole HTTP app (used by main.ts and by every API test). */
export async function createApp(config: AppConfig, database: DatabaseHandle): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', 'loopback');
  // Cloudflare Turnstile loads its script and frame from its own origin.
  const turnstile = config.env.CAPTCHA_PROVIDER === 'turnstile' ? ['https://challenges.cloudflare.com'] : [];
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...turnstile],
          frameSrc: ["'self'", ...turnstile],
          // antd writes its styles at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'", ...turnstile],
          frameAncestors: ["'none'"],
          // Not helmet's default upgrade-insecure-requests: served over plain HTTP on any host but
          // localhost (a LAN address, docker-compose), it makes the browser fetch every script over
          // HTTPS and the page stays blank. Behind TLS, HSTS already keeps browsers on HTTPS.
          upgradeInsecureRequests: null,
        },
      },
      // The same as frame-ancestors 'none', for browsers that only know X-Frame-Options.
      frameguard: { action: 'deny' },
    }),
  );
  app.enableCors({
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    credentials: false,
    exposedHeaders: ['x-request-id', 'content-disposition'],
  });
  // An export carries a whole story (a million characters is ~3 MB of UTF-8): its route gets a larger limit.
  app.use('/api/export', express.json({ limit: EXPORT_BODY_LIMIT_BYTES }));
  app.use(express.json({ limit: config.env.BODY_LIMIT_BYTES }));
  app.use(express.urlencoded({ extended: false, limit: config.env.BODY_LIMIT_BYTES }));
  app.use(bodyParserErrors);
  app.use(rejectUnsafeKeys);
  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  setupSwagger(app);
  if (config.webDistDir) serveWebApp(app, config.webDistDir);
  await app.init();
  return app;
}

// Body-parser failures become coded errors here; Nest would otherwise turn them into a bare 400 or,
// for an unknown Content-Encoding, a gzip body that is not gzip or too many form fields, a 500.
function bodyParserErrors(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
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
 * pollution) or nest deeper than MAX_BODY_DEPTH (a stack-exhausting walk), with 400 VALIDATION_FAILED.
 */
function rejectUnsafeKeys(req: Request, _res: Response, next: NextFunction): void {
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
      stack.push({ value: (value as Record<string, unknown>)[key], path: field, depth: depth + 1 });
    }
  }
  return null;
}

// The built web app on the same port: hashed assets cached for a year, every other path gets index.html.
function serveWebApp(app: NestExpressApplication, dir: string): void {
  app.use('/assets', express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  app.use(express.static(dir, { index: false, maxAge: '1h' }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path === '/api' || req.path.startsWith('/api/')) {
      return next();
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dir, 'index.html'));
  });
}
