import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { UserBalances } from './user-balance.repository';
import { UserRepository } from './user.repository';
import { User, UserSchema } from './user.schema';

/** The owner of the `users` collection: accounts (UserRepository) and balances (UserBalances, for the power ledger). */
@Module({
  imports: [MongooseModule.forFeature([{ name: User.name, schema: UserSchema }])],
  providers: [UserRepository, UserBalances],
  exports: [UserRepository, UserBalances],
})
export class UsersModule {}
