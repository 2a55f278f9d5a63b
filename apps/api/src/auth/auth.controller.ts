import { Body, Controller, Get, HttpCode, Ip, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BindMobileDto,
  InviteCodeDto,
  LoginDto,
  ResetPasswordDto,
  SendSmsDto,
  type InviteCodeAnswer,
} from '@taleloom/contracts';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { OptionalJwtAuthGuard } from '../common/optional-jwt-auth.guard';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { AccountService } from './account.service';
import { InvitesService } from './invites.service';
import { SignInService } from './sign-in.service';

@ApiTags('user')
@Controller('user')
export class AuthController {
  constructor(
    private readonly users: SignInService,
    private readonly account: AccountService,
    private readonly invites: InvitesService,
  ) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in or register',
    description:
      "**type 'username'**: an unknown user name registers (password at least 6 characters), a known one signs in. " +
      'After LOGIN_MAX_FAILURES (5) wrong passwords in a row the name is locked for LOGIN_LOCK_MINUTES (15): ' +
      '429 ACCOUNT_LOCKED with `params.minutes` and `params.until`. A try is counted before its password is checked: of ' +
      'tries sent at once at most LOGIN_MAX_FAILURES are checked, the others answer ACCOUNT_LOCKED.\n\n' +
      "**type 'phone'**: `phoneNum` (national digits), `countryCode` (e.g. 86), `verifyCode` (the 6-digit SMS code " +
      "sent with type 'login'). An unknown number registers a new account (user name generated, phone verified, " +
      'first-binding reward; an `inviteCode` rewards the inviter).\n\n' +
      '**Choose-user rule.** One number can be verified on at most two accounts of one person: the account a phone ' +
      'login created, and ONE user-name account that later bound the same number (bind-mobile). When a phone login ' +
      'finds both, the answer carries `token` (the user-name account) AND `phoneToken` (the phone account); ' +
      '`userInfo.token` and `userInfo.phoneToken` describe each (userName, phoneVerifiedAt, ...) and the client ' +
      'lets the user choose which token to keep. Otherwise only `token` is answered.\n\n' +
      'A non-empty `inviteCode` must exist (400 INVITE_CODE_INVALID); it only counts when the login registers. ' +
      'At most LOGIN_IP_PER_MINUTE (30) attempts per client IP per minute: 429 LOGIN_RATE_LIMITED with `params.seconds`. ' +
      'Answers `{status, message, data:{token, phoneToken?, userInfo}}`; tokens are HS256 JWTs whose payload carries userID.',
  })
  @ApiDtoBody(LoginDto)
  @ApiErrorResponses(400, 401, 429)
  async login(@Body() dto: LoginDto, @Ip() ip: string) {
    return ok(await this.users.login(dto, ip), 'login ok');
  }

  @Get('user-info')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiErrorResponses(401)
  async userInfo(@CurrentUser() user: AuthUser) {
    return ok(await this.users.userInfo(user.userID));
  }

  @Post('send-sms')
  @HttpCode(200)
  @UseGuards(OptionalJwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Send a 6-digit verification code by SMS',
    description:
      "type 'login' (no token needed): pass the captcha first: `verifyCode` is its answer and `captchaId` the id " +
      "from GET /api/captcha. type 'register' (binding a phone) and 'reset_password' (to the bound phone; " +
      'phoneNum not needed): bearer token required, no captcha. A code lives 5 minutes and dies after 5 wrong ' +
      'tries; a number gets at most one code per SMS_RESEND_SECONDS (60) (429 SMS_RESEND_TOO_SOON with ' +
      '`params.seconds`), and SMS_PHONE_HOURLY_LIMIT / SMS_IP_HOURLY_LIMIT codes per hour (429 TOO_MANY_REQUESTS). ' +
      'With the log sender in development, `data.devCode` carries the code.',
  })
  @ApiDtoBody(SendSmsDto)
  @ApiErrorResponses(400, 401, 403, 409, 429, 502, 503)
  async sendSms(@Body() dto: SendSmsDto, @Req() req: { user?: AuthUser }, @Ip() ip: string) {
    return ok(await this.account.sendSms(dto, req.user, ip), 'sms sent');
  }

  @Post('bind-mobile')
  @HttpCode(200)
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Bind and verify a phone (code sent with type register)',
    description:
      'The first binding gives 100000 power (reason init_points), once per user and once per phone number ever; ' +
      'if the user registered with an invite code, the inviter gets 100000 (reason invite_user_register), once per ' +
      'invitee and once per phone number ever. 409 PHONE_ALREADY_VERIFIED / PHONE_ALREADY_BOUND. Answers the fresh user info.',
  })
  @ApiDtoBody(BindMobileDto)
  @ApiErrorResponses(400, 401, 409)
  async bindMobile(@CurrentUser() user: AuthUser, @Body() dto: BindMobileDto) {
    return ok(await this.account.bindMobile(user, dto), 'phone bound');
  }

  @Post('reset-password')
  @HttpCode(200)
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Reset the password (phone-verified users; code sent with type reset_password)',
    description: 'Every token issued before the reset stops working; the answer carries a fresh token.',
  })
  @ApiDtoBody(ResetPasswordDto)
  @ApiErrorResponses(400, 401, 403)
  async resetPassword(@CurrentUser() user: AuthUser, @Body() dto: ResetPasswordDto) {
    return ok(await this.account.resetPassword(user, dto), 'password reset');
  }

  @Post('invite-code')
  @HttpCode(200)
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: "The signed-in user's stable short invite code",
    description: 'Answers `{status, message, short, data:{short}}`; the invite link is `{origin}/i/{short}`.',
  })
  @ApiDtoBody(InviteCodeDto)
  @ApiErrorResponses(401)
  async inviteCode(@CurrentUser() user: AuthUser, @Body() _dto: InviteCodeDto): Promise<InviteCodeAnswer> {
    const short = await this.invites.codeOf(user.userID);
    return { status: 'success', message: 'ok', short, data: { short } };
  }
}
