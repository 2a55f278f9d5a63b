import { Module } from '@nestjs/common';
import { CustomModelsModule } from '../custom-models/custom-models.module';
import { ModelsModule } from '../models/models.module';
import { ModelChooser } from './model-chooser';

/**
 * What every generation is made of, for play (turns), tasks (suggestions and scores) and pictures
 * (their prompts): the model a request runs on (ModelChooser), the event stream a client follows
 * (generation-stream.ts), cost and token counting, the job lifecycle (job-tracker.ts, held-power.ts)
 * and retries while the database is away (persist.ts). It depends on none of those features.
 */
@Module({
  imports: [ModelsModule, CustomModelsModule],
  providers: [ModelChooser],
  exports: [ModelChooser, ModelsModule],
})
export class GenerationModule {}
