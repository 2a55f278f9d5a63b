import { Injectable } from '@nestjs/common';
import { ErrorCode, type BranchesData, type BranchSwitchData, type CreateBranchDto, type RenameBranchDto } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { toObjectId } from '../common/object-id';
import { StoriesService } from '../stories/stories.service';
import { StoryBranchRepository } from '../stories/story-branch.repository';
import { StoryRepository } from '../stories/story.repository';
import { BranchMoves } from './branch-moves';
import { epochMs, toBranchesData } from './branch-view';

/**
 * The branches of a story (its lines): list, "branch from here", switch, rename, delete. Only the
 * story's owner reaches them (anyone else: STORY_NOT_FOUND, as for the story itself).
 */
@Injectable()
export class BranchesService {
  constructor(
    private readonly stories: StoryRepository,
    private readonly storiesService: StoriesService,
    private readonly branches: StoryBranchRepository,
    private readonly moves: BranchMoves,
  ) {}

  async list(user: AuthUser, id: string): Promise<BranchesData> {
    const story = await this.stories.playedBranch(user.userID, id);
    return toBranchesData(story, await this.branches.list(story._id.toHexString(), user.userID));
  }

  /** "Branch from here": a new line from `at` of the played text, played at once; the old line is kept. */
  async fork(user: AuthUser, id: string, dto: CreateBranchDto): Promise<BranchSwitchData> {
    const storyId = await this.ownStory(user, id);
    await this.moves.holding(storyId, user.userID, (held) => this.moves.fork(held, storyId, dto.at, dto.from_branch, (dto.name ?? '').trim()));
    return this.played(user, storyId);
  }

  /** Plays another branch of the story (its text, summary, pictures, tasks and pending turn come back). */
  async play(user: AuthUser, id: string, branchId: string): Promise<BranchSwitchData> {
    const storyId = await this.ownStory(user, id);
    const to = this.branchId(branchId);
    await this.moves.holding(storyId, user.userID, (held) => this.moves.play(held, storyId, to));
    return this.played(user, storyId);
  }

  async rename(user: AuthUser, id: string, branchId: string, dto: RenameBranchDto): Promise<BranchesData> {
    const story = await this.stories.playedBranch(user.userID, id);
    const storyId = story._id.toHexString();
    const target = this.branchId(branchId);
    const docs = await this.branches.list(storyId, user.userID);
    // A story that never branched has its original line only, with no document yet: renaming it makes one.
    const upsert = docs.length === 0 && target === storyId ? { no: 1, createdAt: epochMs(story.createdAt) } : undefined;
    if (!(await this.branches.rename(storyId, user.userID, target, dto.name.trim(), upsert))) throw new AppException(ErrorCode.BRANCH_NOT_FOUND);
    return this.list(user, storyId);
  }

  /** Deletes a branch: never the one being played, nor the last one. */
  async remove(user: AuthUser, id: string, branchId: string): Promise<BranchesData> {
    const storyId = await this.ownStory(user, id);
    const target = this.branchId(branchId);
    await this.moves.holding(storyId, user.userID, (held) => this.moves.remove(held, storyId, target));
    return this.list(user, storyId);
  }

  private async ownStory(user: AuthUser, id: string): Promise<string> {
    const story = await this.stories.playedBranch(user.userID, id);
    return story._id.toHexString();
  }

  // A branch id is an ObjectId's hex (the original line's is the story's); anything else names no branch.
  private branchId(id: string): string {
    return toObjectId(id, ErrorCode.BRANCH_NOT_FOUND).toHexString();
  }

  private async played(user: AuthUser, storyId: string): Promise<BranchSwitchData> {
    const [story, branches] = await Promise.all([this.storiesService.get(user, storyId), this.list(user, storyId)]);
    return { story, ...branches };
  }
}

