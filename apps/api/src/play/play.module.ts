import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CustomModelsModule } from '../custom-models/custom-models.module';
import { ModelsModule } from '../models/models.module';
import { PicturesModule } from '../pictures/pictures.module';
import { PowerModule } from '../power/power.module';
import { StoriesModule } from '../stories/stories.module';
import { VerificationModule } from '../verification/verification.module';
import { TaskStoreModule } from '../tasks/task-store.module';
import { GenerationRunner } from './generation-runner';
import { ModelChooserModule } from './model-chooser.module';
import { PlayController } from './play.controller';
import { PlayService } from './play.service';
import { PlayStories } from './play-stories';
import { PlayTurn, PlayTurnSchema } from './play-turn.schema';
import { TurnRepairService } from './turn-repair.service';

/** Play: streamed continuation and the turn lifecycle. */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: PlayTurn.name, schema: PlayTurnSchema }]),
    ModelsModule,
    CustomModelsModule,
    PowerModule,
    StoriesModule,
    VerificationModule,
    PicturesModule,
    TaskStoreModule,
    ModelChooserModule,
  ],
  controllers: [PlayController],
  providers: [PlayService, PlayStories, GenerationRunner, TurnRepairService],
  exports: [GenerationRunner, TurnRepairService, PlayStories, ModelChooserModule],
})
export class PlayModule {}
