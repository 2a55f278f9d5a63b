import { Module } from '@nestjs/common';
import { CustomModelsModule } from '../custom-models/custom-models.module';
import { ModelsModule } from '../models/models.module';
import { ModelChooser } from './model-chooser';

/** The model chooser on its own: play, tasks and pictures (which play imports) choose a story's model alike. */
@Module({
  imports: [ModelsModule, CustomModelsModule],
  providers: [ModelChooser],
  exports: [ModelChooser],
})
export class ModelChooserModule {}
