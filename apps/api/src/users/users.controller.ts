import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LoginDto } from '@taleloom/contracts';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { JwtAuthGuard } from '../auth/jwt-auth.guard';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { UsersService } from './users.service';

@ApiTags('user')
@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in or register',
    description:
      "With type 'username': an unknown user name registers (password at least 6 characters), a known one signs in. " +
      'Answers `{status, message, data:{token, userInfo}}`; the token is an HS256 JWT whose payload carries userID.',
  })
  @ApiDtoBody(LoginDto)
  @ApiErrorResponses(400, 401)
  async login(@Body() dto: LoginDto) {
    return ok(await this.users.login(dto), 'login ok');
  }

  @Get('user-info')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiErrorResponses(401)
  async userInfo(@CurrentUser() user: AuthUser) {
    return ok(await this.users.userInfo(user.userID));
  }
}
