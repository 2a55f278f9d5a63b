import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CheckInDto, UserPointsQueryDto } from '@taleloom/contracts';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { PowerService } from './power.service';

@ApiTags('power')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('user')
export class PowerController {
  constructor(private readonly power: PowerService) {}

  @Post('check-in')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Daily check-in',
    description: 'Gives 5000 power once per calendar day (time zone: CHECKIN_TIME_ZONE). `data: {awarded, points}`.',
  })
  @ApiDtoBody(CheckInDto)
  @ApiErrorResponses(400, 401, 409)
  async checkIn(@CurrentUser() user: AuthUser, @Body() _dto: CheckInDto) {
    return ok(await this.power.checkIn(user.userID), 'check-in ok');
  }

  @Get('check-in-status')
  @ApiOperation({ summary: 'Whether the user has checked in today', description: '`data: {dailyCheckinStatus}`' })
  @ApiErrorResponses(401)
  async checkInStatus(@CurrentUser() user: AuthUser) {
    return ok(await this.power.checkInStatus(user.userID));
  }

  @Get('user-points')
  @ApiOperation({
    summary: "One page of the signed-in user's points record",
    description: '`data: {records:[{reason, points, operationAt, storyInfo:{storyName}}], pagination}`, newest first.',
  })
  @ApiErrorResponses(400, 401)
  async userPoints(@CurrentUser() user: AuthUser, @Query() query: UserPointsQueryDto) {
    return ok(await this.power.records(user.userID, query));
  }
}
