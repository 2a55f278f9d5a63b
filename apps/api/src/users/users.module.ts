import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule } from '../auth/auth.module';
import { VerificationModule } from '../verification/verification.module';
import { AccountService } from './account.service';
import { InterimRewards } from './interim-rewards';
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
    { provide: RewardsPort, useClass: InterimRewards },
  ],
  exports: [UsersService, MongooseModule],
})
export class UsersModule {}
