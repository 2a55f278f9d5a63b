import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectConnection } from '@nestjs/mongoose';
import { ErrorCode } from '@taleloom/contracts';
import type { Connection } from 'mongoose';
import { AppException } from '../common/app-exception';

const WITHOUT_DATABASE = 'taleloom:without-database';
// While the database is away, at most one wake-up ping per interval.
const WAKE_EVERY_MS = 500;
const CONNECTED = 1;

/** Marks a controller or route that answers without the database (health). */
export const AnswersWithoutDatabase = () => SetMetadata(WITHOUT_DATABASE, true);

/**
 * While the driver knows the database is unreachable, every request that needs it is answered at once
 * with 503 DATABASE_UNAVAILABLE instead of waiting out a server-selection timeout. Each refused
 * request may send one ping (at most every 500 ms), which makes the driver look for the server again,
 * so the API answers again as soon as the database is back, without a restart.
 */
@Injectable()
export class DatabaseGateGuard implements CanActivate {
  private lastWake = 0;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.connection.readyState === CONNECTED) return true;
    if (this.reflector.getAllAndOverride<boolean>(WITHOUT_DATABASE, [context.getHandler(), context.getClass()])) return true;
    this.wake();
    throw new AppException(ErrorCode.DATABASE_UNAVAILABLE);
  }

  private wake(): void {
    const now = Date.now();
    if (now - this.lastWake < WAKE_EVERY_MS) return;
    this.lastWake = now;
    void this.connection.db?.command({ ping: 1 }).catch(() => undefined);
  }
}
