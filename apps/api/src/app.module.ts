import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
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

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: DatabaseHandle, logStream?: DestinationStream): DynamicModule {
    const pinoHttp: Options = {
      level: config.env.LOG_LEVEL,
      // Every request gets an id (taken from the caller when it sends a sane one), echoed back.
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers[REQUEST_ID_HEADER];
        const id = typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader(REQUEST_ID_HEADER, id);
        return id;
      },
      // Custom models' keys (api_key) must never reach a log line either.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.newPassword', 'req.body.api_key'],
      autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/health' },
      transport:
        config.env.NODE_ENV === 'development' && !logStream
          ? { target: 'pino-pretty', options: { singleLine: true } }
          : undefined,
    };
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggerModule.forRoot({
          // Named wildcard (path-to-regexp 8); the default '*' makes Nest warn and convert it.
          forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
          pinoHttp: logStream ? [pinoHttp, logStream] : pinoHttp,
        }),
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
