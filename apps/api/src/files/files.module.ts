import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PicturesModule } from '../pictures/pictures.module';
import { ExportService } from './export.service';
import { FilesController } from './files.controller';
import { UploadParserService } from './upload-parser.service';

@Module({
  imports: [AuthModule, PicturesModule],
  controllers: [FilesController],
  providers: [UploadParserService, ExportService],
})
export class FilesModule {}
