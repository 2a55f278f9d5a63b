import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { StoryArchive, StoryArchiveSchema } from '../archives/story-archive.schema';
import { CustomModelsModule } from '../custom-models/custom-models.module';
import { Counter, CounterSchema } from './counter.schema';
import { LlmStoriesController } from './llm-stories.controller';
import { StoriesController } from './stories.controller';
import { StoriesService } from './stories.service';
import { StoryNumbersService } from './story-numbers.service';
import { StoryPlayer, StoryPlayerSchema } from './story-player.schema';
import { StorySpreadService } from './story-spread.service';
import { Story, StorySchema } from './story.schema';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Story.name, schema: StorySchema },
      { name: StoryArchive.name, schema: StoryArchiveSchema },
      { name: StoryPlayer.name, schema: StoryPlayerSchema },
      { name: Counter.name, schema: CounterSchema },
    ]),
    CustomModelsModule,
  ],
  controllers: [StoriesController, LlmStoriesController],
  providers: [StoriesService, StorySpreadService, StoryNumbersService],
  exports: [StoriesService, StoryNumbersService, MongooseModule],
})
export class StoriesModule {}
