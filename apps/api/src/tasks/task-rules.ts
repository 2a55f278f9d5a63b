// The rules of task groups as pure functions over plain values: the service reads a document,
// applies one of these and writes the result back in one conditional update.
import {
  ErrorCode,
  TASK_TARGETS_MAX,
  TASK_TARGETS_MIN,
  type FieldProblem,
  type TaskGroup,
  type TaskGroupDraft,
  type TaskTarget,
  type TaskTargetDto,
  type TaskVerdict,
} from '@taleloom/contracts';
import { AppException } from '../common/app-exception';

/** Sum of the scores of the completed targets. */
export function groupScore(group: Pick<TaskGroup, 'targets'>): number {
  return group.targets.reduce((sum, t) => sum + (t.completed ? t.score : 0), 0);
}

export const isComplete = (group: Pick<TaskGroup, 'targets'>) => group.targets.length > 0 && group.targets.every((t) => t.completed);

export function totals(groups: TaskGroup[]): { total_score: number; complete_task: number } {
  return {
    total_score: groups.reduce((sum, g) => sum + groupScore(g), 0),
    complete_task: groups.filter(isComplete).length,
  };
}

/** The targets still open, with their positions. */
export function openTargets(group: Pick<TaskGroup, 'targets'>): { index: number; target: TaskTarget }[] {
  return group.targets.map((target, index) => ({ index, target })).filter((x) => !x.target.completed);
}

/**
 * The group the task play modes steer toward: the current one while it has open targets; after it
 * is completed, the first group it leads to that is still open; else the newest open group.
 */
export function pickCurrent(groups: TaskGroup[], previous: number | null): number | null {
  const byId = new Map(groups.map((g) => [g.tasks_id, g]));
  const prev = previous === null ? undefined : byId.get(previous);
  if (prev && !isComplete(prev)) return prev.tasks_id;
  if (prev) {
    const next = prev.subsequent_task_groups.map((id) => byId.get(id)).find((g) => g && !isComplete(g));
    if (next) return next.tasks_id;
  }
  const open = [...groups].reverse().find((g) => !isComplete(g));
  return open?.tasks_id ?? null;
}

/** A new group from an accepted suggestion. */
export function groupFromDraft(
  draft: TaskGroupDraft,
  ids: { tasksId: number; globalId: string; targetId: () => string },
  turn: number,
): TaskGroup {
  return {
    global_tasks_id: ids.globalId,
    tasks_id: ids.tasksId,
    series_name: draft.series_name,
    main_character: draft.main_character,
    score: 0,
    targets: draft.targets.map((t) => ({
      id: ids.targetId(),
      title: t.title,
      type: t.type,
      score: t.score,
      completed: false,
      complete_turn: null,
      original_probability: t.probability,
      current_probability: t.probability,
      evidence: '',
      reason: '',
    })),
    tasks_created_at_turn: turn,
    tasks_scored_at_turn: null,
    preceding_task_groups: [],
    subsequent_task_groups: [],
  };
}

const COMPLETED_REASON = 'completed tasks cannot be edited or deleted';

function completedError(index: number, field?: 'title' | 'type' | 'score'): AppException {
  const problem: FieldProblem = { field: field ? `targets.${index}.${field}` : `targets.${index}`, constraints: [COMPLETED_REASON], rules: ['completed'] };
  return new AppException(ErrorCode.TASK_COMPLETED, [problem], { task: index + 1, field: field ?? '' });
}

/**
 * The group's new targets from an edit: 1 to 4; targets are matched by `id` (an empty or unknown id is
 * a new target); a completed target must come back unchanged, and cannot be left out.
 */
export function applyTargetEdits(current: TaskTarget[], incoming: TaskTargetDto[], newId: () => string): TaskTarget[] {
  if (incoming.length < TASK_TARGETS_MIN || incoming.length > TASK_TARGETS_MAX) {
    throw new AppException(ErrorCode.TASK_TARGET_COUNT, undefined, { min: TASK_TARGETS_MIN, max: TASK_TARGETS_MAX, count: incoming.length });
  }
  const existing = new Map(current.map((t) => [t.id, t]));
  const used = new Set<string>();
  const next = incoming.map((edit, index): TaskTarget => {
    const before = edit.id && !used.has(edit.id) ? existing.get(edit.id) : undefined;
    if (before) {
      used.add(before.id);
      if (before.completed) {
        for (const field of ['title', 'type', 'score'] as const) {
          if (edit[field] !== before[field]) throw completedError(index, field);
        }
        return before;
      }
      return { ...before, title: edit.title, type: edit.type, score: edit.score };
    }
    return {
      id: newId(), title: edit.title, type: edit.type, score: edit.score, completed: false, complete_turn: null,
      original_probability: null, current_probability: null, evidence: '', reason: '',
    };
  });
  const dropped = current.findIndex((t) => t.completed && !used.has(t.id));
  if (dropped !== -1) throw completedError(dropped);
  return next;
}

function relationProblem(field: string, rule: string, reason: string): FieldProblem[] {
  return [{ field, constraints: [reason], rules: [rule] }];
}

/**
 * Sets the groups that come before and/or after group `tasksId`, and mirrors them: if A comes before
 * B, B comes after A. A group cannot reference itself; every id must be a group of the story.
 */
export function applyRelations(
  groups: TaskGroup[],
  tasksId: number,
  relations: { preceding_task_groups?: number[]; subsequent_task_groups?: number[] },
): TaskGroup[] {
  const known = new Set(groups.map((g) => g.tasks_id));
  const lists = {} as Record<'preceding_task_groups' | 'subsequent_task_groups', number[] | undefined>;
  for (const field of ['preceding_task_groups', 'subsequent_task_groups'] as const) {
    const ids = relations[field];
    if (!ids) continue;
    if (ids.includes(tasksId)) {
      throw new AppException(ErrorCode.TASK_SELF_REFERENCE, relationProblem(field, 'selfReference', 'a task group cannot reference itself'));
    }
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) {
      throw new AppException(ErrorCode.TASKS_NOT_FOUND, relationProblem(field, 'unknownGroup', `no task group ${unknown}`), { tasks_id: unknown });
    }
    lists[field] = [...new Set(ids)].sort((a, b) => a - b);
  }
  const before = lists.preceding_task_groups;
  const after = lists.subsequent_task_groups;
  const mirror = (list: number[], member: boolean) =>
    member ? [...new Set([...list, tasksId])].sort((a, b) => a - b) : list.filter((id) => id !== tasksId);
  return groups.map((g) => {
    if (g.tasks_id === tasksId) {
      return { ...g, preceding_task_groups: before ?? g.preceding_task_groups, subsequent_task_groups: after ?? g.subsequent_task_groups };
    }
    return {
      ...g,
      subsequent_task_groups: before ? mirror(g.subsequent_task_groups, before.includes(g.tasks_id)) : g.subsequent_task_groups,
      preceding_task_groups: after ? mirror(g.preceding_task_groups, after.includes(g.tasks_id)) : g.preceding_task_groups,
    };
  });
}

/** Removes a group and every reference to it. */
export function removeGroup(groups: TaskGroup[], index: number): TaskGroup[] {
  const gone = groups[index].tasks_id;
  return groups
    .filter((_, i) => i !== index)
    .map((g) => ({
      ...g,
      preceding_task_groups: g.preceding_task_groups.filter((id) => id !== gone),
      subsequent_task_groups: g.subsequent_task_groups.filter((id) => id !== gone),
    }));
}

/** The group after a scoring: verdicts of open targets applied (matched by target id), its score and scoring turn. */
export function applyVerdicts(group: TaskGroup, verdicts: TaskVerdict[], turn: number): TaskGroup {
  const byId = new Map(verdicts.map((v) => [v.target_id, v]));
  const targets = group.targets.map((t): TaskTarget => {
    const v = byId.get(t.id);
    if (!v || t.completed) return t;
    const probability = v.completed ? 100 : v.probability;
    return {
      ...t,
      completed: v.completed,
      complete_turn: v.completed ? turn : null,
      evidence: v.completed ? v.evidence : '',
      reason: v.reason,
      current_probability: probability ?? t.current_probability,
      original_probability: t.original_probability ?? v.probability,
    };
  });
  const next = { ...group, targets, tasks_scored_at_turn: turn };
  return { ...next, score: groupScore(next) };
}

/** Every group with its score recomputed (a stored score is never trusted over its targets). */
export function withScores(groups: TaskGroup[]): TaskGroup[] {
  return groups.map((g) => ({ ...g, score: groupScore(g) }));
}
