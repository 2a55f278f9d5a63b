import { Injectable } from '@nestjs/common';
import { ALL_ERROR_CODES, ErrorCode, formatStreamPosition, type Language, type StreamEvent, type StreamPosition } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import type { AuthUser } from '../common/current-user.decorator';
import { isDatabaseUnavailable } from '../common/database-errors';
import { errorMessage } from '../common/error-messages';
import { toObjectId } from '../common/object-id';
import type { EventSource } from '../common/sse-response';
import type { Listener } from '../generation/generation-stream';
import { StoryRepository } from '../stories/story.repository';
import { RunningTurns } from './running-turns';
import { StoredTurnWatch } from './stored-turn-watch';
import { TurnRepairService } from './turn-repair.service';
import { userTextOf } from './turn-text';
import { TurnRepository, type FollowedTurn } from './turn.repository';

/**
 * Rejoining a story's turn (GET /api/llm/{id}/stream): on the process that runs its generation, from
 * memory (Generation.follow); elsewhere, or once it has ended, from the stored turn, which its runner
 * writes every second (StoredTurnWatch reads it for every follower here). Either way the events carry
 * the same positions, so a client may lose its connection, land on any process and go on from its last
 * event id without a gap or a repeat. Nothing is sent to the provider or charged: this only reads.
 */
@Injectable()
export class TurnFollow {
  constructor(
    private readonly running: RunningTurns,
    private readonly watch: StoredTurnWatch,
    private readonly turns: TurnRepository,
    private readonly stories: StoryRepository,
    private readonly repair: TurnRepairService,
  ) {}

  /**
   * The rest of the story's turn after `from` (null: all of it), then its live events. `turnId`: the
   * turn `from` belongs to (another turn is streamed from its start). Throws STORY_NOT_FOUND for
   * another user's story and NO_RUNNING_TURN when the story has no turn generating or pending.
   */
  async open(user: AuthUser, id: string, from: StreamPosition | null, turnId: string | undefined, language: Language): Promise<EventSource> {
    const storyId = toObjectId(id);
    const here = this.running.get(id);
    if (here) {
      if (here.userID !== user.userID) throw new AppException(ErrorCode.STORY_NOT_FOUND);
      const { generation } = here;
      const start = turnId && turnId !== generation.id ? null : from;
      return {
        subscribe: (listener) =>
          // Ended since: the stored turn has its whole text by then (TurnSend stores it before `done`).
          generation.follow(start, listener) ?? this.later(listener, language, () => this.fromStore(user, id, start, generation.id, language)),
      };
    }
    const turn = await this.turns.find(storyId, user.userID);
    if (!turn) throw new AppException((await this.stories.isOwn(user.userID, id)) ? ErrorCode.NO_RUNNING_TURN : ErrorCode.STORY_NOT_FOUND);
    if (turn.state === 'idle' || !turn.generationId) throw new AppException(ErrorCode.NO_RUNNING_TURN);
    const start = turnId && turnId !== turn.generationId ? null : from;
    return this.stored(user, id, turn, start, language);
  }

  // A stream whose source is known only once something is read (a generation that ended just now).
  private later(listener: Listener, language: Language, open: () => Promise<EventSource>): () => void {
    let stop: (() => void) | null = null;
    let stopped = false;
    open().then(
      (source) => {
        if (!stopped) stop = source.subscribe(listener);
      },
      (error: unknown) => {
        const code = error instanceof AppException ? error.code : isDatabaseUnavailable(error) ? ErrorCode.DATABASE_UNAVAILABLE : ErrorCode.INTERNAL_ERROR;
        if (!stopped) listener({ type: 'error', code, message: errorMessage(code, language) });
      },
    );
    return () => {
      stopped = true;
      stop?.();
    };
  }

  private async fromStore(user: AuthUser, id: string, from: StreamPosition | null, generationId: string, language: Language): Promise<EventSource> {
    const turn = await this.turns.find(toObjectId(id), user.userID);
    if (!turn || turn.generationId !== generationId || turn.state === 'idle') throw new AppException(ErrorCode.NO_RUNNING_TURN);
    return this.stored(user, id, turn, from, language);
  }

  // Follows the stored turn: what it has after `from` at once, then what each read of it adds.
  private async stored(user: AuthUser, id: string, turn: FollowedTurn, from: StreamPosition | null, language: Language): Promise<EventSource> {
    // The user part is stored with the first text; before that it is made as the send made it.
    const userText = turn.userText || (from ? '' : userTextOf(turn, await this.stories.forPlay(user.userID, id)));
    const follower = new StoredFollower(turn.generationId!, from, userText, language, (t) => this.repair.isLive(t, Date.now()));
    return {
      subscribe: (listener) => {
        if (follower.apply(turn, listener)) return () => undefined;
        const stop = this.watch.add(id, (now) => {
          if (follower.apply(now, listener)) stop();
        });
        return stop;
      },
    };
  }
}

/** One rejoined stream that follows a stored turn: where its client is, and what to send it next. */
class StoredFollower {
  private at: StreamPosition | null;

  constructor(
    private readonly generationId: string,
    from: StreamPosition | null,
    private readonly userText: string,
    private readonly language: Language,
    private readonly isLive: (turn: FollowedTurn) => boolean,
  ) {
    this.at = from ? { ...from } : null;
  }

  /** Sends what `turn` has beyond what was sent; true when the stream has ended. */
  apply(turn: FollowedTurn | null, listener: Listener): boolean {
    // Accepted, dropped or replaced by a newer send in between two reads: its end is not known here.
    if (!turn || turn.generationId !== this.generationId || turn.state === 'idle') {
      listener(this.error(ErrorCode.NO_RUNNING_TURN));
      return true;
    }
    let at = this.at;
    if (!at) {
      at = this.at = { text: 0, reasoning: 0 };
      const user: StreamEvent = { type: 'user', text: turn.userText || this.userText, role: turn.role ?? '', turnId: this.generationId };
      listener(user, formatStreamPosition(at));
    }
    const reasoning = turn.reasoning ?? '';
    const text = turn.aiText ?? '';
    // A client ahead of what is stored (it read the runner's memory) waits until the store catches up.
    if (reasoning.length > at.reasoning) {
      const piece = reasoning.slice(at.reasoning);
      at.reasoning = reasoning.length;
      listener({ type: 'reasoning', text: piece }, formatStreamPosition(at));
    }
    if (text.length > at.text) {
      const piece = text.slice(at.text);
      at.text = text.length;
      listener({ type: 'delta', text: piece }, formatStreamPosition(at));
    }
    const id = formatStreamPosition(at);
    if (turn.state === 'generating' && this.isLive(turn)) return false;
    // A generation whose process died: done when its whole text was stored (repair settles it), else failed.
    const whole = turn.state === 'done' || (turn.state === 'generating' && typeof turn.finalCost === 'number');
    if (whole) {
      const cost = turn.state === 'done' ? (turn.cost ?? 0) : turn.finalCost!;
      listener({ type: 'usage', promptTokens: turn.promptTokens ?? 0, completionTokens: turn.completionTokens ?? 0, cost }, id);
      listener({ type: 'done', turnId: this.generationId }, id);
    } else {
      const stored = turn.errorCode as ErrorCode | null;
      const code = turn.state === 'failed' && stored && ALL_ERROR_CODES.includes(stored) ? stored : ErrorCode.PROVIDER_ERROR;
      listener(this.error(code), id);
    }
    return true;
  }

  private error(code: ErrorCode): StreamEvent {
    return { type: 'error', code, message: errorMessage(code, this.language) };
  }
}
