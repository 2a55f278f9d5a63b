import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule } from '../auth/auth.module';
import { PowerModule } from '../power/power.module';
import { PowerService } from '../power/power.service';
import { VerificationModule } from '../verification/verification.module';
import { AccountService } from './account.service';
import { InvitesService } from './invites.service';
import { LoginFailure, LoginFailureSchema } from './login-failure.schema';
import { LoginLockoutService } from './login-lockout.service';
import { PhoneLoginService } from './phone-login.service';
import { PhoneReward, PhoneRewardSchema } from './phone-reward.schema';
import { PhoneRewardsService } from './phone-rewards.service';
import { RewardsPort } from './rewards.port';
import { User, UserSchema } from './user.schema';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: User.name, schema: UserSchema },
      { name: LoginFailure.name, schema: LoginFailureSchema },
      { name: PhoneReward.name, schema: PhoneRewardSchema },
    ]),
    AuthModule,
    VerificationModule,
    PowerModule,
  ],
  controllers: [UsersController],
  providers: [
    UsersService,
    PhoneLoginService,
    AccountService,
    InvitesService,
    LoginLockoutService,
    PhoneRewardsService,
    // Rewards go through the power ledger's idempotent grant.
    { provide: RewardsPort, useExisting: PowerService },
  ],
  exports: [UsersService, MongooseModule],
})
export class UsersModule {}
