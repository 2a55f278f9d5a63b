import { Module } from '@nestjs/common';
import { PlayModule } from '../play/play.module';
import { StoriesModule } from '../stories/stories.module';
import { TasksModule } from '../tasks/tasks.module';
import { BranchMoves } from './branch-moves';
import { BranchesController } from './branches.controller';
import { BranchesService } from './branches.service';

/**
 * Branches of a story: fork, switch, rename, delete. It owns no collection: the branches are stories'
 * (`story_branches`), the parked turns play's, the per-branch tasks tasks'; this module moves a story
 * from one branch to another through their repositories, step by step (BranchMoves).
 */
@Module({
  imports: [StoriesModule, PlayModule, TasksModule],
  controllers: [BranchesController],
  providers: [BranchesService, BranchMoves],
})
export class BranchesModule {}
