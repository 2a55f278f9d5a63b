import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MongooseModule } from '@nestjs/mongoose';
import { DatabaseGateGuard } from './database-gate.guard';
import type { DatabaseHandle } from './embedded-database';
import mongoose from 'mongoose';

// Mongoose keeps every query's call stack as text, for a "query was already executed" error we never
// cause; with source maps on, formatting that stack cost more than the query's own round trip.
mongoose.set('skipOriginalStackTraces', true);

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
          // A database that stops answering (a network partition) is noticed within ~15 s: the next
          // heartbeat (every 5 s) times out after 5 s, which fails the requests that were waiting on it.
          connectTimeoutMS: 5000,
          heartbeatFrequencyMS: 5000,
          autoIndex: true,
        }),
      ],
      providers: [
        { provide: DATABASE_HANDLE, useValue: handle },
        // Before every route guard: refuse at once while the database is known to be away.
        { provide: APP_GUARD, useClass: DatabaseGateGuard },
      ],
      exports: [DATABASE_HANDLE],
    };
  }
}
