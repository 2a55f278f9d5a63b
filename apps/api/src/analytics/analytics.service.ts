import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { AnalyticsEventDto } from '@taleloom/contracts';
import { createHmac } from 'node:crypto';
import { Model, Types } from 'mongoose';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Clock } from '../verification/clock';
import { RateLimitService } from '../verification/rate-limit.service';
import { AnalyticsEvent } from './analytics-event.schema';

const PER_MINUTE = 60;

@Injectable()
export class AnalyticsService {
  constructor(
    @InjectModel(AnalyticsEvent.name) private readonly events: Model<AnalyticsEvent>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly limits: RateLimitService,
    private readonly clock: Clock,
  ) {}

  async record(dto: AnalyticsEventDto, userID: string | undefined, ip: string): Promise<void> {
    await this.limits.hit(`analytics:ip:${ip}`, PER_MINUTE, 60);
    await this.events.create({
      name: dto.name,
      at: this.clock.now(),
      userID: userID && Types.ObjectId.isValid(userID) ? new Types.ObjectId(userID) : null,
      path: dto.path ?? null,
      method: dto.method ?? null,
      language: dto.language ?? null,
      visitor: createHmac('sha256', this.config.jwtSecret).update(`visitor:${ip}`).digest('hex').slice(0, 16),
    });
  }
}
