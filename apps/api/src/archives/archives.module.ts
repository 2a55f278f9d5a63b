import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StoriesModule } from '../stories/stories.module';
import { ArchivesController } from './archives.controller';
import { ArchivesService } from './archives.service';

// The Story and StoryArchive models come from StoriesModule, which registers both.
@Module({
  imports: [StoriesModule, AuthModule],
  controllers: [ArchivesController],
  providers: [ArchivesService],
})
export class ArchivesModule {}
