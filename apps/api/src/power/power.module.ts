import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule } from '../auth/auth.module';
import { User, UserSchema } from '../users/user.schema';
import { LedgerEntry, LedgerEntrySchema } from './ledger-entry.schema';
import { LedgerRepairService } from './ledger-repair.service';
import { LedgerStore } from './ledger-store';
import { PowerController } from './power.controller';
import { PowerService } from './power.service';

/** The power ledger: import it and call PowerService (grant, hold, settle, release). */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: LedgerEntry.name, schema: LedgerEntrySchema },
      { name: User.name, schema: UserSchema },
    ]),
    AuthModule,
  ],
  controllers: [PowerController],
  providers: [LedgerStore, PowerService, LedgerRepairService],
  exports: [PowerService],
})
export class PowerModule {}
