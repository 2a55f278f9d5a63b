import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { GenerationModule } from '../generation/generation.module';
import { PowerModule } from '../power/power.module';
import { StoriesModule } from '../stories/stories.module';
import { ImageGenerator } from './image-generator';
import { ImagesController } from './images.controller';
import { PictureFileRepository } from './picture-file.repository';
import { Picture, PictureSchema } from './picture.schema';
import { PictureRepository } from './picture.repository';
import { PictureRunner } from './picture.runner';
import { PicturesController } from './pictures.controller';
import { PicturesService } from './pictures.service';
import { TurnAcceptedListener } from './turn-accepted.listener';

/**
 * Story pictures: drawn in the background, kept in GridFS, referenced by stories. The owner of the
 * `story_pictures` collection and the `pictures` GridFS bucket. An accepted turn (play's TurnAccepted
 * event) gets its picture here; play does not know about pictures.
 */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: Picture.name, schema: PictureSchema }]),
    // The story's model, platform or the user's own, chosen as play chooses it.
    GenerationModule,
    PowerModule,
    StoriesModule,
  ],
  controllers: [PicturesController, ImagesController],
  providers: [PicturesService, PictureRunner, PictureRepository, PictureFileRepository, ImageGenerator, TurnAcceptedListener],
  exports: [PicturesService],
})
export class PicturesModule {}
