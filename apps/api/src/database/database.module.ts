import { DynamicModule, Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import type { DatabaseHandle } from './embedded-database';

export const DATABASE_HANDLE = Symbol('DATABASE_HANDLE');

/** Connects mongoose to the database chosen by `startDatabase` (see embedded-database.ts). */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(handle: DatabaseHandle): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        MongooseModule.forRoot(handle.uri, {
          // Fail fast instead of queueing requests forever while the database is away.
          serverSelectionTimeoutMS: 5000,
          autoIndex: true,
        }),
      ],
      providers: [{ provide: DATABASE_HANDLE, useValue: handle }],
      exports: [DATABASE_HANDLE],
    };
  }
}
