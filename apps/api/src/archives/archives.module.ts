import { Module } from '@nestjs/common';
import { StoriesModule } from '../stories/stories.module';
import { ArchivesController } from './archives.controller';
import { ArchivesService } from './archives.service';

// The Story and StoryArchive models come from StoriesModule, which registers both.
@Module({
  imports: [StoriesModule],
  controllers: [ArchivesController],
  providers: [ArchivesService],
})
export class ArchivesModule {}
