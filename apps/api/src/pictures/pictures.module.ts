import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ModelsModule } from '../models/models.module';
import { ModelChooserModule } from '../play/model-chooser.module';
import { PowerModule } from '../power/power.module';
import { StoriesModule } from '../stories/stories.module';
import { ImageGenerator } from './image-generator';
import { ImagesController } from './images.controller';
import { Picture, PictureSchema } from './picture.schema';
import { PictureRecords } from './picture-records';
import { PictureRunner } from './picture-runner';
import { PictureStories } from './picture-stories';
import { PictureStore } from './picture-store';
import { PicturesController } from './pictures.controller';
import { PicturesService } from './pictures.service';

/** Story pictures: drawn in the background, kept in GridFS, referenced by stories. */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: Picture.name, schema: PictureSchema }]),
    ModelsModule,
    // The story's model, platform or the user's own, chosen as play chooses it.
    ModelChooserModule,
    PowerModule,
    // The Story and StoryArchive models.
    StoriesModule,
  ],
  controllers: [PicturesController, ImagesController],
  providers: [PicturesService, PictureRunner, PictureRecords, PictureStories, PictureStore, ImageGenerator],
  exports: [PicturesService, PictureRunner],
})
export class PicturesModule {}
