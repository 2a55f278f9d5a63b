import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule } from '../auth/auth.module';
import { CustomModelsModule } from '../custom-models/custom-models.module';
import { ModelsModule } from '../models/models.module';
import { PowerModule } from '../power/power.module';
import { StoriesModule } from '../stories/stories.module';
import { GenerationRunner } from './generation-runner';
import { PlayController } from './play.controller';
import { PlayService } from './play.service';
import { PlayStories } from './play-stories';
import { PlayTurn, PlayTurnSchema } from './play-turn.schema';

/** Play: streamed continuation and the turn lifecycle. */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: PlayTurn.name, schema: PlayTurnSchema }]),
    AuthModule,
    ModelsModule,
    CustomModelsModule,
    PowerModule,
    StoriesModule,
  ],
  controllers: [PlayController],
  providers: [PlayService, PlayStories, GenerationRunner],
  exports: [GenerationRunner],
})
export class PlayModule {}
