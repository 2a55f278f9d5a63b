import { Body, Controller, HttpCode, Ip, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AnalyticsEventDto } from '@taleloom/contracts';
import { OptionalJwtAuthGuard } from '../common/optional-jwt-auth.guard';
import { ok } from '../common/api-envelope';
import type { AuthUser } from '../common/current-user.decorator';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { AnalyticsService } from './analytics.service';

@ApiTags('analytics')
@Controller('analytics')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Post('events')
  @HttpCode(202)
  @UseGuards(OptionalJwtAuthGuard)
  @ApiOperation({
    summary: 'Record a first-party analytics event',
    description: 'login_page_view, login_button_click, invite_code_click, login_success; 60 per minute per client.',
  })
  @ApiDtoBody(AnalyticsEventDto)
  @ApiErrorResponses(400, 429)
  async record(@Body() dto: AnalyticsEventDto, @Req() req: { user?: AuthUser }, @Ip() ip: string) {
    await this.analytics.record(dto, req.user?.userID, ip);
    return ok(null, 'recorded');
  }
}
