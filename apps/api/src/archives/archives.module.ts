import { Module } from '@nestjs/common';
import { StoriesModule } from '../stories/stories.module';
import { ArchivesController } from './archives.controller';
import { ArchivesService } from './archives.service';

// Stories and their snapshots are read and written through StoriesModule's repositories.
@Module({
  imports: [StoriesModule],
  controllers: [ArchivesController],
  providers: [ArchivesService],
})
export class ArchivesModule {}
