import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ModelsModule } from '../models/models.module';
import { VerificationModule } from '../verification/verification.module';
import { AddressGuard } from './address-guard';
import { ConnectionTester } from './connection-tester';
import { CustomModelSet, CustomModelSetSchema } from './custom-model-set.schema';
import { CustomModelsController } from './custom-models.controller';
import { CustomModelsService } from './custom-models.service';
import { GuardedTransport } from './guarded-transport';

/** Users' own OpenAI-compatible models: storage (keys encrypted), the address guard and the connection test. */
@Module({
  imports: [
    // Renames and deletes are announced (custom-model.events.ts): stories that chose the model follow.
    MongooseModule.forFeature([{ name: CustomModelSet.name, schema: CustomModelSetSchema }]),
    ModelsModule,
    VerificationModule,
  ],
  controllers: [CustomModelsController],
  providers: [CustomModelsService, AddressGuard, GuardedTransport, ConnectionTester],
  exports: [CustomModelsService, GuardedTransport, AddressGuard],
})
export class CustomModelsModule {}
