import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { TaskGroup, TaskSuggestions } from '@taleloom/contracts';
import { SchemaTypes, Types } from 'mongoose';

/**
 * The tasks of one story (`_id` is the story's id): its task groups, the latest suggestions and the
 * claim of a running suggestion or scoring request. One document per story, so every rule is one
 * conditional single-document update: edits match on `rev`, a request claims `jobId`.
 */
@Schema({ collection: 'story_tasks', timestamps: true })
export class StoryTasks {
  @Prop({ type: Types.ObjectId, required: true }) _id: Types.ObjectId;
  @Prop({ required: true }) userID: string;
  @Prop({ type: [SchemaTypes.Mixed], default: [] }) groups: TaskGroup[];
  // The next group's tasks_id (numbers are never reused).
  @Prop({ default: 1 }) nextTasksId: number;
  @Prop({ type: Number, default: null }) current_tasks_id: number | null;
  @Prop({ default: 0 }) total_forbidden_turns: number;
  @Prop({ type: SchemaTypes.Mixed, default: null }) suggestions: TaskSuggestions | null;
  // Bumped by every change of the tasks: writes match on it (optimistic concurrency) and clients compare it.
  @Prop({ default: 0 }) rev: number;
  // The running suggestion or scoring request; one at a time per story. A claim whose heartbeat is
  // old belongs to an instance that died and may be taken over. Times are epoch milliseconds.
  @Prop({ type: String, default: null }) jobId: string | null;
  @Prop({ type: String, default: null }) jobKind: 'create' | 'score' | null;
  @Prop({ default: 0 }) jobHeartbeatAt: number;
}

export const StoryTasksSchema = SchemaFactory.createForClass(StoryTasks);
