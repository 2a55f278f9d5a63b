import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { VerificationModule } from '../verification/verification.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsEvent, AnalyticsEventSchema } from './analytics-event.schema';
import { AnalyticsService } from './analytics.service';

@Module({
  imports: [MongooseModule.forFeature([{ name: AnalyticsEvent.name, schema: AnalyticsEventSchema }]), VerificationModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService],
})
export class AnalyticsModule {}
