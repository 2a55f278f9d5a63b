import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  PowerReason,
  TASK_SUGGESTION_COUNT,
  type AddTaskGroupDto,
  type Language,
  type TaskGroup,
  type TaskInfo,
  type TaskStatusData,
  type UpdateTaskGroupDto,
} from '@taleloom/contracts';
import { randomUUID } from 'node:crypto';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { storyLanguage } from '../common/story-language';
import { Generation } from '../generation/generation-stream';
import { ModelChooser, type ChosenModel } from '../generation/model-chooser';
import { PowerService } from '../power/power.service';
import { playedBranchKey } from '../stories/played-branch';
import { StoryRepository, type StoryForTasks } from '../stories/story.repository';
import type { StoryTasks } from './story-tasks.schema';
import { judgementMessages, suggestionMessages } from './task-prompts';
import { applyRelations, applyTargetEdits, groupFromDraft, isComplete, openTargets, removeGroup, totals } from './task-rules';
import { TaskRunner, type TaskJobBase } from './task.runner';
import { TaskRepository } from './task.repository';

// Answers of task requests are JSON for up to three groups of four targets: more room than a short reply.
const TASK_MAX_TOKENS = 1200;

type TaskStory = StoryForTasks;

/**
 * Task groups of a story: AI suggestions (streamed, paid), accepting one, editing, relations,
 * deleting, and AI scoring of the open targets (streamed, paid). Only the story's owner reaches them.
 */
@Injectable()
export class TasksService {
  constructor(
    private readonly stories: StoryRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: TaskRepository,
    private readonly runner: TaskRunner,
    private readonly chooser: ModelChooser,
    private readonly power: PowerService,
  ) {}

  /** A running request with no heartbeat for this long is taken to be dead (its instance stopped). */
  private get staleMs(): number {
    return 2 * this.config.env.PROVIDER_TIMEOUT_SECONDS * 1000 + 30_000;
  }

  async info(user: AuthUser, id: string): Promise<TaskInfo> {
    const story = await this.own(user, id);
    return this.toInfo(story, await this.store.read(playedBranchKey(story)));
  }

  async status(user: AuthUser, id: string): Promise<TaskStatusData> {
    const story = await this.own(user, id);
    const key = playedBranchKey(story);
    // The branch's tasks, and the story's one running request (claimed on the story's own document).
    const [doc, lock] = await Promise.all([this.store.read(key), key.equals(story._id) ? null : this.store.read(story._id)]);
    const job = lock ?? doc;
    const groups = doc?.groups ?? [];
    const turn = story.rounds ?? 0;
    const alive = job?.jobId && (job.jobHeartbeatAt ?? 0) >= Date.now() - this.staleMs;
    return {
      rev: doc?.rev ?? 0,
      current_turn: turn,
      current_tasks_id: doc?.current_tasks_id ?? null,
      ...totals(groups),
      total_forbidden_turns: doc?.total_forbidden_turns ?? 0,
      running: alive ? (job.jobKind ?? null) : null,
      list: groups.map((g, index) => ({
        index,
        tasks_id: g.tasks_id,
        series_name: g.series_name,
        score: g.score,
        max_score: g.targets.reduce((sum, t) => sum + t.score, 0),
        completed_targets: g.targets.filter((t) => t.completed).length,
        total_targets: g.targets.length,
        tasks_scored_at_turn: g.tasks_scored_at_turn,
        can_score: !isComplete(g) && g.tasks_scored_at_turn !== turn,
      })),
    };
  }

  /** Starts streaming new suggestions (paid); throws before anything is streamed when it cannot start. */
  async create(user: AuthUser, id: string, language: Language): Promise<Generation> {
    const story = this.unlocked(await this.own(user, id));
    const doc = await this.store.ensure(playedBranchKey(story), user.userID);
    const chosen = await this.chooser.ofStory(user.userID, story);
    const maxTokens = this.maxTokens(chosen.model);
    const messages = suggestionMessages(this.context(story), doc.groups ?? [], TASK_SUGGESTION_COUNT, this.language(story), chosen.model.contextWindow - maxTokens - 64);
    return this.launch(user, story, 'create', chosen, language, (base) =>
      this.runner.start({ ...base, kind: 'create', count: TASK_SUGGESTION_COUNT, messages, maxTokens }),
    );
  }

  /** Accepts a suggestion as a new group; accepting the same one again answers the group it became. */
  async addNew(user: AuthUser, id: string, dto: AddTaskGroupDto): Promise<TaskInfo> {
    const story = this.unlocked(await this.own(user, id));
    const doc = await this.store.read(playedBranchKey(story));
    if (!doc?.suggestions || doc.suggestions.batch !== dto.batch || !doc.suggestions.groups[dto.index]) {
      throw new AppException(ErrorCode.TASKS_NOT_FOUND);
    }
    const written = await this.store.change(playedBranchKey(story), (d) => {
      const suggestion = d.suggestions?.batch === dto.batch ? d.suggestions.groups[dto.index] : undefined;
      if (!suggestion) throw new AppException(ErrorCode.TASKS_NOT_FOUND);
      if (suggestion.accepted_as !== null) return {};
      const tasksId = d.nextTasksId ?? 1;
      const group = groupFromDraft(suggestion, { tasksId, globalId: randomUUID(), targetId: newTargetId }, story.rounds ?? 0);
      const groups = d.suggestions!.groups.map((s, i) => (i === dto.index ? { ...s, accepted_as: tasksId } : s));
      return {
        groups: [...(d.groups ?? []), group],
        nextTasksId: tasksId + 1,
        current_tasks_id: tasksId,
        suggestions: { batch: dto.batch, groups },
      };
    });
    return this.toInfo(story, written);
  }

  /** Edits the targets, names or relations of group `groupId` (its tasks_id). */
  async update(user: AuthUser, id: string, groupId: string, dto: UpdateTaskGroupDto): Promise<TaskInfo> {
    const story = this.unlocked(await this.own(user, id));
    const tasksId = /^\d{1,9}$/.test(groupId) ? Number(groupId) : -1;
    const { targets, series_name, main_character, preceding_task_groups, subsequent_task_groups } = dto;
    if ([targets, series_name, main_character, preceding_task_groups, subsequent_task_groups].every((v) => v === undefined)) {
      throw new AppException(ErrorCode.NOTHING_TO_UPDATE);
    }
    const written = await this.store.change(playedBranchKey(story), (d) => {
      let groups = d.groups ?? [];
      const i = groups.findIndex((g) => g.tasks_id === tasksId);
      if (i === -1) throw new AppException(ErrorCode.TASKS_NOT_FOUND);
      const edited: TaskGroup = { ...groups[i] };
      if (targets) edited.targets = applyTargetEdits(edited.targets, targets, newTargetId);
      if (series_name !== undefined) edited.series_name = series_name;
      if (main_character !== undefined) edited.main_character = main_character;
      groups = groups.map((g, k) => (k === i ? edited : g));
      if (preceding_task_groups || subsequent_task_groups) groups = applyRelations(groups, tasksId, { preceding_task_groups, subsequent_task_groups });
      return { groups };
    });
    return this.toInfo(story, written);
  }

  /** Deletes the group at `index`; one holding a completed target cannot be deleted. */
  async remove(user: AuthUser, id: string, index: string, tasksId?: number): Promise<TaskInfo> {
    const story = this.unlocked(await this.own(user, id));
    const written = await this.store.change(playedBranchKey(story), (d) => {
      const i = this.groupIndex(d, index, tasksId);
      const completed = d.groups[i].targets.findIndex((t) => t.completed);
      if (completed !== -1) {
        throw new AppException(
          ErrorCode.TASK_COMPLETED,
          [{ field: `targets.${completed}`, constraints: ['completed tasks cannot be edited or deleted'], rules: ['completed'] }],
          { task: completed + 1, field: '' },
        );
      }
      return { groups: removeGroup(d.groups, i) };
    });
    return this.toInfo(story, written);
  }

  /**
   * Starts streaming the judgement of the open targets of the group at `index` (paid). A group with
   * no open target has nothing to score (TASK_NOTHING_TO_SCORE, not counted). The plot must have moved
   * on (a new turn) since the group was last scored: else TASK_ALREADY_SCORED, counted.
   */
  async score(user: AuthUser, id: string, index: string, tasksId: number | undefined, language: Language): Promise<Generation> {
    const story = await this.own(user, id);
    const doc = await this.store.read(playedBranchKey(story));
    if (!doc) throw new AppException(ErrorCode.TASKS_NOT_FOUND);
    const group = doc.groups[this.groupIndex(doc, index, tasksId)];
    const turn = story.rounds ?? 0;
    const open = openTargets(group);
    // A completed group is not a refused turn: the player did nothing wrong, so it is not counted.
    if (open.length === 0) throw new AppException(ErrorCode.TASK_NOTHING_TO_SCORE);
    if (group.tasks_scored_at_turn === turn) {
      await this.store.countForbidden(playedBranchKey(story));
      throw new AppException(ErrorCode.TASK_ALREADY_SCORED, undefined, { turn });
    }
    const chosen = await this.chooser.ofStory(user.userID, story);
    const maxTokens = this.maxTokens(chosen.model);
    const messages = judgementMessages(this.context(story), open.map((o) => o.target), this.language(story), chosen.model.contextWindow - maxTokens - 64);
    return this.launch(user, story, 'score', chosen, language, (base) =>
      this.runner.start({ ...base, kind: 'score', tasksId: group.tasks_id, open, storyText: story.main_text ?? '', turn, messages, maxTokens }),
    );
  }

  // Claims the story's one task request, holds the power, and hands the job to the runner.
  private async launch(
    user: AuthUser,
    story: TaskStory,
    kind: 'create' | 'score',
    chosen: ChosenModel,
    language: Language,
    start: (base: TaskJobBase) => void,
  ): Promise<Generation> {
    const jobId = randomUUID();
    // One request at a time per story, whichever branch it plays: the claim is on the story's own document.
    const tasksKey = playedBranchKey(story);
    if (!tasksKey.equals(story._id)) await this.store.ensure(story._id, user.userID);
    if (!(await this.store.claim(story._id, jobId, kind, this.staleMs))) throw new AppException(ErrorCode.GENERATION_IN_PROGRESS);
    let holdId: string | null = null;
    try {
      // A custom model costs nothing here (the user's own key pays its provider).
      if (chosen.model.points > 0) {
        holdId = await this.power.hold(user.userID, chosen.model.points, `tasks-${kind}:${jobId}`, {
          reason: PowerReason.STORY,
          storyID: story._id.toHexString(),
          storyName: story.name ?? '',
        });
      }
    } catch (error) {
      await this.store.release(story._id, jobId);
      throw error;
    }
    const generation = new Generation(jobId, story._id.toHexString());
    start({
      ...chosen, id: jobId, generation, storyId: story._id, tasksKey, holdId, language,
      royalty: () => this.stories.royaltyRecipient({ userID: story.userID, lineage: story.lineage ?? [] }),
    });
    return generation;
  }

  private groupIndex(doc: StoryTasks, index: string, tasksId?: number): number {
    const i = /^\d{1,9}$/.test(index) ? Number(index) : -1;
    const group = doc.groups?.[i];
    if (!group || (tasksId !== undefined && group.tasks_id !== tasksId)) throw new AppException(ErrorCode.TASKS_NOT_FOUND);
    return i;
  }

  private async own(user: AuthUser, id: string): Promise<TaskStory> {
    return this.stories.forTasks(user.userID, id);
  }

  // Stories of an activity keep their tasks as the activity set them.
  private unlocked(story: TaskStory): TaskStory {
    if (story.activity) throw new AppException(ErrorCode.TASKS_LOCKED);
    return story;
  }

  private context(story: TaskStory) {
    return {
      prologue_and_characters: story.prologue_and_characters ?? '',
      goal: story.goal ?? '',
      previous_summary: story.previous_summary ?? '',
      main_text: story.main_text ?? '',
    };
  }

  private language(story: TaskStory) {
    return storyLanguage(story.main_text || story.prologue_and_characters || '');
  }

  private maxTokens(model: { contextWindow: number; maxOutput: number }): number {
    return Math.min(Math.floor(model.contextWindow / 4), Math.max(model.maxOutput, TASK_MAX_TOKENS));
  }

  private toInfo(story: TaskStory, doc: StoryTasks | null): TaskInfo {
    const groups = doc?.groups ?? [];
    return {
      story_id: story._id.toHexString(),
      tasks_list: groups,
      current_tasks_id: doc?.current_tasks_id ?? null,
      current_turn: story.rounds ?? 0,
      ...totals(groups),
      total_forbidden_turns: doc?.total_forbidden_turns ?? 0,
      suggestions: doc?.suggestions ?? null,
      locked: Boolean(story.activity),
      rev: doc?.rev ?? 0,
    };
  }
}

const newTargetId = () => randomUUID().replace(/-/g, '').slice(0, 12);
