import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { StoriesModule } from '../stories/stories.module';
import { LoreController } from './lore.controller';
import { LoreListener } from './lore.listener';
import { LoreRepository } from './lore.repository';
import { StoryLore, StoryLoreArchive, StoryLoreArchiveSchema, StoryLoreSchema } from './lore.schema';
import { LoreService } from './lore.service';

/**
 * Lore: a story's world as entries that enter the prompt when their keywords appear; the owner of the
 * `story_lore` and `story_lore_archives` collections. It follows stories and archives through their
 * events (a new story's lore, clones, the public version, save slots); play reads it for every send.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: StoryLore.name, schema: StoryLoreSchema },
      { name: StoryLoreArchive.name, schema: StoryLoreArchiveSchema },
    ]),
    StoriesModule,
  ],
  controllers: [LoreController],
  providers: [LoreService, LoreRepository, LoreListener],
  exports: [LoreService],
})
export class LoreModule {}
