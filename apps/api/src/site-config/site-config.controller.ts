import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SiteConfigData } from '@taleloom/contracts';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ApiErrorResponses } from '../swagger/api-dto-body.decorator';

/** Operator configuration the web app shows: QQ group, Discord link, activity notice. */
@ApiTags('site')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('site-config')
export class SiteConfigController {
  private readonly data: SiteConfigData;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.data = siteConfigOf(config);
  }

  @Get()
  @ApiOperation({ summary: 'Community links and the activity notice (from SITE_* variables)' })
  @ApiErrorResponses(401)
  get() {
    return ok(this.data);
  }
}

export function siteConfigOf({ env }: AppConfig): SiteConfigData {
  return {
    qqGroup: env.SITE_QQ_GROUP_NUMBER
      ? { number: env.SITE_QQ_GROUP_NUMBER, imageUrl: env.SITE_QQ_GROUP_IMAGE_URL ?? '', link: env.SITE_QQ_GROUP_LINK ?? '' }
      : null,
    discordUrl: env.SITE_DISCORD_URL ?? null,
    activity: env.SITE_ACTIVITY_TITLE
      ? { title: env.SITE_ACTIVITY_TITLE, imageUrl: env.SITE_ACTIVITY_IMAGE_URL ?? '', link: env.SITE_ACTIVITY_LINK ?? '' }
      : null,
  };
}
