import { Module } from '@nestjs/common';
import { PlayModule } from '../play/play.module';
import { StoriesModule } from '../stories/stories.module';
import { ArchivesController } from './archives.controller';
import { ArchivesService } from './archives.service';

// Stories and their snapshots are read and written through StoriesModule's repositories; a load holds
// the story's turn (PlayModule's TurnParking), as a change of branch does.
@Module({
  imports: [StoriesModule, PlayModule],
  controllers: [ArchivesController],
  providers: [ArchivesService],
})
export class ArchivesModule {}
