import { Module } from '@nestjs/common';
import { PicturesModule } from '../pictures/pictures.module';
import { StoriesModule } from '../stories/stories.module';
import { ExportService } from './export.service';
import { FilesController } from './files.controller';
import { UploadParserService } from './upload-parser.service';

@Module({
  imports: [PicturesModule, StoriesModule],
  controllers: [FilesController],
  providers: [UploadParserService, ExportService],
})
export class FilesModule {}
