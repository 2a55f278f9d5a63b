import { Module } from '@nestjs/common';
import { ModelsModule } from '../models/models.module';
import { PlayModule } from '../play/play.module';
import { PowerModule } from '../power/power.module';
import { StoriesModule } from '../stories/stories.module';
import { TaskJobRunner } from './task-job-runner';
import { TaskStoreModule } from './task-store.module';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

/** Tasks: AI-suggested task groups of a story, their editing and their AI scoring. */
@Module({
  imports: [ModelsModule, PowerModule, StoriesModule, PlayModule, TaskStoreModule],
  controllers: [TasksController],
  providers: [TasksService, TaskJobRunner],
})
export class TasksModule {}
