import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { MongooseModule } from '@nestjs/mongoose';
import { PassportModule } from '@nestjs/passport';
import { createSecretKey } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PowerModule } from '../power/power.module';
import { PowerService } from '../power/power.service';
import { UsersModule } from '../users/users.module';
import { VerificationModule } from '../verification/verification.module';
import { AccountService } from './account.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { InvitesService } from './invites.service';
import { JwtStrategy } from './jwt.strategy';
import { LoginFailure, LoginFailureSchema } from './login-failure.schema';
import { LoginLockoutService } from './login-lockout.service';
import { PasswordsService } from './passwords.service';
import { PhoneLoginService } from './phone-login.service';
import { PhoneReward, PhoneRewardSchema } from './phone-reward.schema';
import { PhoneRewardsService } from './phone-rewards.service';
import { RewardsPort } from './rewards.port';
import { SignInService } from './sign-in.service';
import { TokenUsers } from './token-user.cache';

/**
 * Signing in and accounts (`/api/user`): user-name and phone login, codes, phone binding and its
 * rewards, password reset, invite codes; and the JWT strategy every guard (common/) checks tokens with.
 */
@Module({
  imports: [
    PassportModule,
    MongooseModule.forFeature([
      { name: LoginFailure.name, schema: LoginFailureSchema },
      { name: PhoneReward.name, schema: PhoneRewardSchema },
    ]),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        // A KeyObject: a string is first tried as a PEM private key on every signing (see JwtStrategy).
        secret: createSecretKey(Buffer.from(config.jwtSecret)),
        signOptions: { algorithm: 'HS256', expiresIn: expiresIn(config.env.JWT_EXPIRES_IN) },
      }),
    }),
    UsersModule,
    VerificationModule,
    PowerModule,
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    TokenUsers,
    JwtStrategy,
    SignInService,
    PasswordsService,
    PhoneLoginService,
    AccountService,
    InvitesService,
    LoginLockoutService,
    PhoneRewardsService,
    // Rewards go through the power ledger's idempotent grant.
    { provide: RewardsPort, useExisting: PowerService },
  ],
})
export class AuthModule {}

function expiresIn(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value)!;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
