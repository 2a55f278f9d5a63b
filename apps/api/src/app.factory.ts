import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { LORE_BODY_LIMIT_BYTES, STORY_TEXT_BODY_LIMIT_BYTES } from '@taleloom/contracts';
import { AppModule } from './app.module';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { BootQuietLogger } from './common/boot-quiet-logger';
import { bodyParserErrors } from './common/body-parser-errors';
import { createValidationPipe } from './common/validation.pipe';
import { SharedShapesExpressAdapter } from './common/express-adapter';
import { AppConfig } from './config/app-config';
import type { DatabaseHandle } from './database/embedded-database';
import { setupSwagger } from './swagger/swagger';
import { serveWebApp } from './web/serve-web-app';

const EXPORT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
/** A JSON answer to a GET at least this long goes compressed to a browser that accepts it. */
export const COMPRESS_MIN_BYTES = 16 * 1024;

/**
 * The long answers of reads (a story's whole text: a million characters is 1 to 3 MB of JSON, read
 * each time /play opens it) go gzip- or brotli-compressed to a browser that accepts either, a third
 * to a half of the bytes a phone waits for. Only JSON answers to GETs of at least COMPRESS_MIN_BYTES:
 * a send's stream, the small answers of every click, pictures (already compressed), and the web app's
 * files (compressed at build time) are sent as they are, with none of this in their path. The work
 * is zlib's, off the event loop. A GET answer carries no secret a page could guess a byte at a time
 * (tokens travel in headers and in the answers to POSTs).
 */
function compressLongReads(): (req: Request, res: Response, next: NextFunction) => void {
  const compress = compression({
    threshold: COMPRESS_MIN_BYTES,
    filter: (_req, res) => /^application\/json\b/.test(String(res.getHeader('Content-Type') ?? '')),
  });
  return (req, res, next) => (req.method === 'GET' && req.path.startsWith('/api/') ? compress(req, res, next) : next());
}

export interface CreateAppOptions {
  /** Where log lines go instead of stdout (a test reads them). */
  logStream?: DestinationStream;
}

/** Builds the whole HTTP app (used by main.ts and by every API test). */
export async function createApp(config: AppConfig, database: DatabaseHandle, options: CreateAppOptions = {}): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database, options.logStream), new SharedShapesExpressAdapter(), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(new BootQuietLogger(app.get(Logger)));
  // The client address behind trusted proxies: per-IP limits must see users, not the proxy.
  const trustProxy = config.env.TRUST_PROXY;
  app.set('trust proxy', /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy.split(',').map((p) => p.trim()));
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
    exposedHeaders: ['x-request-id', 'content-disposition', 'preference-applied'],
  });
  app.use(compressLongReads());
  // An export carries a whole story (a million characters is ~3 MB of UTF-8): its route gets a larger limit.
  app.use('/api/export', express.json({ limit: EXPORT_BODY_LIMIT_BYTES }));
  // Saving a whole story text (PATCH /api/llm?id=): up to STORY_TEXT_MAX_LENGTH characters.
  const storyTextJson = express.json({ limit: Math.max(STORY_TEXT_BODY_LIMIT_BYTES, config.env.BODY_LIMIT_BYTES) });
  app.use((req: Request, res: Response, next: NextFunction) =>
    req.method === 'PATCH' && req.path === '/api/llm' ? storyTextJson(req, res, next) : next(),
  );
  // A whole lore book: importing one, or creating a story with the lore of its imported file.
  const loreJson = express.json({ limit: Math.max(LORE_BODY_LIMIT_BYTES, config.env.BODY_LIMIT_BYTES) });
  app.use((req: Request, res: Response, next: NextFunction) =>
    req.method === 'POST' && (req.path === '/api/llm' || /^\/api\/lore\/[^/]+\/import$/.test(req.path)) ? loreJson(req, res, next) : next(),
  );
  app.use(express.json({ limit: config.env.BODY_LIMIT_BYTES }));
  app.use(express.urlencoded({ extended: false, limit: config.env.BODY_LIMIT_BYTES }));
  app.use(bodyParserErrors);
  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  setupSwagger(app);
  if (config.webDistDir) serveWebApp(app, config.webDistDir);
  await app.init();
  return app;
}
