import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CustomModelsModule } from '../custom-models/custom-models.module';
import { Counter, CounterSchema } from './counter.schema';
import { CustomModelChoiceListener } from './custom-model-choice.listener';
import { LlmStoriesController } from './llm-stories.controller';
import { StoriesController } from './stories.controller';
import { StoriesService } from './stories.service';
import { StoryArchiveRepository } from './story-archive.repository';
import { StoryArchive, StoryArchiveSchema } from './story-archive.schema';
import { StoryBranchRepository } from './story-branch.repository';
import { StoryBranch, StoryBranchSchema } from './story-branch.schema';
import { StoryNumbersService } from './story-numbers.service';
import { StoryPictureRepository } from './story-picture.repository';
import { StoryPlayer, StoryPlayerSchema } from './story-player.schema';
import { StoryRepository } from './story.repository';
import { SpreadRepairService } from './spread-repair.service';
import { StoryCredits } from './story-credits.repository';
import { StorySpreadService } from './story-spread.service';
import { Story, StorySchema } from './story.schema';

/**
 * Stories and the square, and the owner of the `stories`, `story_archives`, `story_branches`,
 * `story_players` and `counters` collections: other features read and write stories through the
 * repositories exported here.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Story.name, schema: StorySchema },
      { name: StoryArchive.name, schema: StoryArchiveSchema },
      { name: StoryBranch.name, schema: StoryBranchSchema },
      { name: StoryPlayer.name, schema: StoryPlayerSchema },
      { name: Counter.name, schema: CounterSchema },
    ]),
    CustomModelsModule,
  ],
  controllers: [StoriesController, LlmStoriesController],
  providers: [
    StoriesService,
    StorySpreadService,
    StoryCredits,
    SpreadRepairService,
    StoryNumbersService,
    StoryRepository,
    StoryArchiveRepository,
    StoryPictureRepository,
    StoryBranchRepository,
    CustomModelChoiceListener,
  ],
  exports: [StoriesService, StoryNumbersService, StoryRepository, StoryArchiveRepository, StoryPictureRepository, StoryBranchRepository],
})
export class StoriesModule {}
