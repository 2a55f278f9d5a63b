import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SiteConfigController } from './site-config.controller';

@Module({ imports: [AuthModule], controllers: [SiteConfigController] })
export class SiteConfigModule {}
