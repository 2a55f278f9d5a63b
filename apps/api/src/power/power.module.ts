import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { UsersModule } from '../users/users.module';
import { LedgerEntry, LedgerEntrySchema } from './ledger-entry.schema';
import { LedgerRepairService } from './ledger-repair.service';
import { LedgerRepository } from './ledger.repository';
import { PowerController } from './power.controller';
import { PowerService } from './power.service';

/** The power ledger: import it and call PowerService (grant, hold, settle, release). */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: LedgerEntry.name, schema: LedgerEntrySchema }]),
    // Balances live on the users' documents.
    UsersModule,
  ],
  controllers: [PowerController],
  providers: [LedgerRepository, PowerService, LedgerRepairService],
  exports: [PowerService],
})
export class PowerModule {}
