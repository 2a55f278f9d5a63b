import { Controller, Get, Inject, Res } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { HealthData } from '@taleloom/contracts';
import type { Response } from 'express';
import type { Connection } from 'mongoose';
import { ok } from '../common/api-envelope';
import { AnswersWithoutDatabase } from '../database/database-gate.guard';
import { DATABASE_HANDLE } from '../database/database.module';
import type { DatabaseHandle } from '../database/embedded-database';

const PING_TIMEOUT_MS = 2000;

@ApiTags('health')
@AnswersWithoutDatabase()
@Controller('health')
export class HealthController {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    @Inject(DATABASE_HANDLE) private readonly database: DatabaseHandle,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness and database reachability (503 when the database is down)' })
  @ApiOkResponse({ description: '`data.database` is up or down' })
  async health(@Res({ passthrough: true }) res: Response) {
    const up = await this.ping();
    const data: HealthData = {
      database: up ? 'up' : 'down',
      databaseKind: this.database.kind,
      uptimeSeconds: Math.round(process.uptime()),
      version: process.env.npm_package_version ?? '0.1.0',
    };
    if (!up) res.status(503);
    return ok(data);
  }

  private async ping(): Promise<boolean> {
    const db = this.connection.db;
    if (!db || this.connection.readyState !== 1) return false;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        db.command({ ping: 1 }).then(() => true),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), PING_TIMEOUT_MS))),
      ]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
