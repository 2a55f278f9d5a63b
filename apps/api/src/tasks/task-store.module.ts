import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { StoryTasks, StoryTasksSchema } from './story-tasks.schema';
import { TaskStore } from './task-store';

/** The tasks documents, shared by the tasks feature and by play (which puts the open targets into prompts). */
@Module({
  imports: [MongooseModule.forFeature([{ name: StoryTasks.name, schema: StoryTasksSchema }])],
  providers: [TaskStore],
  exports: [TaskStore],
})
export class TaskStoreModule {}
