import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { GenerationModule } from '../generation/generation.module';
import { PowerModule } from '../power/power.module';
import { StoriesModule } from '../stories/stories.module';
import { StoryTasks, StoryTasksSchema } from './story-tasks.schema';
import { TaskRepository } from './task.repository';
import { TaskRunner } from './task.runner';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

/**
 * Tasks: AI-suggested task groups of a story, their editing and their AI scoring; the owner of the
 * `story_tasks` collection (play reads the open targets through TaskRepository).
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: StoryTasks.name, schema: StoryTasksSchema }]), GenerationModule, PowerModule, StoriesModule],
  controllers: [TasksController],
  providers: [TasksService, TaskRunner, TaskRepository],
  exports: [TaskRepository],
})
export class TasksModule {}
