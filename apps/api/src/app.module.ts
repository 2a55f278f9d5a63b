import { DynamicModule, Inject, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { pinoHttp, type HttpLogger, type Options } from 'pino-http';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AnalyticsModule } from './analytics/analytics.module';
import { ArchivesModule } from './archives/archives.module';
import { AuthModule } from './auth/auth.module';
import { BranchesModule } from './branches/branches.module';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/app-config.module';
import { CustomModelsModule } from './custom-models/custom-models.module';
import { DatabaseModule } from './database/database.module';
import type { DatabaseHandle } from './database/embedded-database';
import { FilesModule } from './files/files.module';
import { HealthModule } from './health/health.module';
import { LoreModule } from './lore/lore.module';
import { ModelsModule } from './models/models.module';
import { PicturesModule } from './pictures/pictures.module';
import { PlayModule } from './play/play.module';
import { SiteConfigModule } from './site-config/site-config.module';
import { StoriesModule } from './stories/stories.module';
import { TasksModule } from './tasks/tasks.module';
import { PowerModule } from './power/power.module';
import { UsersModule } from './users/users.module';
import { VerificationModule } from './verification/verification.module';

const REQUEST_ID_HEADER = 'x-request-id';
const HTTP_LOGGER = Symbol('HTTP_LOGGER');

@Module({})
export class AppModule implements NestModule {
  constructor(@Inject(HTTP_LOGGER) private readonly httpLogger: HttpLogger) {}

  // Every request is logged by pino-http itself (its line when it ends, with the request id).
  configure(consumer: MiddlewareConsumer): void {
    // Named wildcard (path-to-regexp 8); the default '*' makes Nest warn and convert it.
    consumer.apply(this.httpLogger).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }

  static forRoot(config: AppConfig, database: DatabaseHandle, logStream?: DestinationStream): DynamicModule {
    const pinoHttpOptions: Options = {
      level: config.env.LOG_LEVEL,
      // Every request gets an id (taken from the caller when it sends a sane one), echoed back.
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers[REQUEST_ID_HEADER];
        const id = typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader(REQUEST_ID_HEADER, id);
        return id;
      },
      // The answer's status (its headers are the app's own, the same on every line: a fifth of a send's
      // logging CPU in a 500-stream burst went to serialising them).
      serializers: { res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }) },
      // Custom models' keys (api_key) must never reach a log line either.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.newPassword', 'req.body.api_key'],
      autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/health' },
      transport:
        config.env.NODE_ENV === 'development' && !logStream
          ? { target: 'pino-pretty', options: { singleLine: true } }
          : undefined,
    };
    const httpLogger = logStream ? pinoHttp(pinoHttpOptions, logStream) : pinoHttp(pinoHttpOptions);
    return {
      module: AppModule,
      providers: [{ provide: HTTP_LOGGER, useValue: httpLogger }],
      imports: [
        AppConfigModule.forRoot(config),
        // The app's Logger writes through the same pino logger as the request lines. Not nestjs-pino's own
        // request middleware: it runs each request inside an AsyncLocalStorage (to bind the request to the
        // lines logged while it runs), which turns on promise hooks for every promise of the process. Under
        // a burst of 500 streams that cost 19 % of the API's CPU per stream and 17 % of its peak RSS
        // (bench:burst, same rounds); the lines a request's own work logs carry its ids (generation, story)
        // instead, and pino-http's line for the request has its id, method, url, status and time.
        LoggerModule.forRoot({ pinoHttp: { logger: httpLogger.logger }, useExisting: true, forRoutes: [] }),
        DatabaseModule.forRoot(database),
        // Features tell each other what happened (story created, turn accepted, custom model renamed).
        EventEmitterModule.forRoot(),
        AuthModule,
        HealthModule,
        UsersModule,
        ModelsModule,
        CustomModelsModule,
        PlayModule,
        BranchesModule,
        VerificationModule,
        AnalyticsModule,
        PowerModule,
        StoriesModule,
        SiteConfigModule,
        FilesModule,
        ArchivesModule,
        PicturesModule,
        TasksModule,
        LoreModule,
      ],
    };
  }
}
