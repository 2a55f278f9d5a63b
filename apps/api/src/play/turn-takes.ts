import type { PendingTake } from '@taleloom/contracts';
import type { Types } from 'mongoose';
import type { PlayTurn, StoredTake } from './play-turn.schema';

type TurnFields = Pick<PlayTurn, 'generationId' | 'aiText' | 'reasoning' | 'model' | 'cost' | 'promptTokens' | 'completionTokens' | 'finishedAt'>;

/** A generation's take as the turn keeps it. */
export function takeOf(turn: TurnFields, cost = turn.cost ?? 0): StoredTake {
  return {
    turnId: turn.generationId ?? '',
    aiText: turn.aiText ?? '',
    reasoning: turn.reasoning ?? '',
    model: turn.model ?? '',
    cost,
    promptTokens: turn.promptTokens ?? 0,
    completionTokens: turn.completionTokens ?? 0,
    finishedAt: turn.finishedAt ?? Date.now(),
  };
}

/** The ids of every take of a pending turn (the kept ones and the newest, whatever its state). */
export function takeIds(turn: Pick<PlayTurn, 'generationId' | 'takes'>): string[] {
  const ids = (turn.takes ?? []).map((t) => t.turnId);
  if (turn.generationId && !ids.includes(turn.generationId)) ids.push(turn.generationId);
  return ids;
}

/** Whether the turn's newest take is done but not among its kept takes (a turn from before takes were kept). */
export function newestNotKept(turn: Pick<PlayTurn, 'state' | 'generationId' | 'takes'>): boolean {
  return turn.state === 'done' && Boolean(turn.generationId) && !(turn.takes ?? []).some((t) => t.turnId === turn.generationId);
}

/**
 * The takes of a pending turn as the client sees them, oldest first: the kept (done) ones, then the
 * newest when it is not one of them (generating, failed, or done before takes were kept). `newest`
 * is the newest take as the pending view describes it (its state, text so far, cost and error).
 */
export function takeViews(turn: Pick<PlayTurn, 'generationId' | 'takes'>, newest: PendingTake | null): PendingTake[] {
  const kept: PendingTake[] = (turn.takes ?? []).map((t) => ({
    turnId: t.turnId, state: 'done', aiText: t.aiText, reasoning: t.reasoning, model: t.model, cost: t.cost, errorCode: null,
  }));
  if (!newest) return kept;
  const at = kept.findIndex((t) => t.turnId === newest.turnId);
  if (at === -1) return [...kept, newest];
  kept[at] = { ...kept[at], ...newest };
  return kept;
}

/** The branch a turn belongs to: its story's original line when it says none. */
export function turnBranchOf(turn: Pick<PlayTurn, 'branchId'>, storyId: Types.ObjectId): string {
  return turn.branchId || storyId.toHexString();
}
