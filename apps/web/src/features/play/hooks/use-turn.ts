import {
  CUSTOM_MODEL_TYPE,
  SEND_THROTTLE_MS,
  type ModelChoice,
  type PendingTake,
  type PendingTurnData,
  type PendingTurnEditDto,
  type StreamEvent,
} from '@taleloom/contracts';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ApiClientError, isApiClientError } from '../../../lib/api-client';
import { acceptTurn } from '../api/accept-turn';
import { discardTurn } from '../api/discard-turn';
import { getPendingTurn } from '../api/get-pending-turn';
import { sendTurn } from '../api/send-turn';
import { rejoinTurn } from './turn-stream';

export type TurnPhase = 'loading' | 'idle' | 'generating' | 'review' | 'failed';

/** One take of the turn as the page holds it (its AI part as the user edited it). */
export type TakeView = Pick<PendingTake, 'turnId' | 'aiText' | 'reasoning' | 'cost' | 'errorCode'> & { state: PendingTake['state'] };

/**
 * The turn as shown: its user part and, of its takes (regenerate adds one beside the others), the
 * one shown (`shown`): `aiText`, `reasoning`, `turnId`, `errorCode` and `cost` are that take's.
 */
export interface TurnView {
  phase: TurnPhase;
  role: string;
  input: string;
  userText: string;
  aiText: string;
  reasoning: string;
  turnId: string | null;
  errorCode: string | null;
  cost: number;
  takes: TakeView[];
  shown: number;
}

export interface TurnCallbacks {
  /**
   * Text was appended to the story (an accepted turn). A send that accepted the earlier turn calls it
   * again with nothing appended when it ends: what the server started for that turn (its picture) is there.
   */
  onAppended(appended: string): void;
  /** Older text was folded into the previous summary. */
  onSummary(summary: string): void;
  /** Something to tell the user (an error code to translate). */
  onError(error: unknown): void;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

const EMPTY: TurnView = { phase: 'idle', role: '', input: '', userText: '', aiText: '', reasoning: '', turnId: null, errorCode: null, cost: 0, takes: [], shown: 0 };
const POLL_MS = 1000;

/** The view with take `index` shown (its text and id are the turn's now). */
function showTake(v: TurnView, index: number): TurnView {
  const take = v.takes[index];
  if (!take) return v;
  return { ...v, shown: index, aiText: take.aiText, reasoning: take.reasoning, turnId: take.turnId || v.turnId, errorCode: take.errorCode, cost: take.cost };
}

/** The view with the shown take changed by `change` (the turn's mirrored fields too). */
function changeShown(v: TurnView, change: Partial<TakeView>): TurnView {
  const takes = v.takes.map((t, i) => (i === v.shown ? { ...t, ...change } : t));
  return showTake({ ...v, takes }, v.shown);
}

/** The view after a streamed event of the turn being written (the text goes on in place). */
function afterEvent(v: TurnView, event: StreamEvent): TurnView {
  switch (event.type) {
    case 'user':
      // A rejoin that found a newer turn than the one shown starts it afresh.
      if (v.turnId && event.turnId !== v.turnId) {
        return changeShown({ ...v, phase: 'generating', role: event.role, userText: event.text }, { turnId: event.turnId, aiText: '', reasoning: '', cost: 0, errorCode: null, state: 'generating' });
      }
      return changeShown({ ...v, userText: event.text }, { turnId: event.turnId });
    case 'delta':
      return changeShown(v, { aiText: v.aiText + event.text });
    case 'reasoning':
      return changeShown(v, { reasoning: v.reasoning + event.text });
    case 'usage':
      return changeShown(v, { cost: event.cost });
    case 'done':
      return changeShown({ ...v, phase: 'review' }, { turnId: event.turnId, state: 'done' });
    case 'error':
      return changeShown({ ...v, phase: 'failed' }, { errorCode: event.code, state: 'failed' });
    default:
      return v;
  }
}

/** Where a turn read from the server is, as a stream position (its text is a prefix of the stream's). */
const positionOf = (p: PendingTurnData) => `${p.aiText.length}:${p.reasoning.length}`;

function fromPending(p: PendingTurnData): TurnView {
  const phase: TurnPhase = p.state === 'done' ? 'review' : p.state === 'failed' ? 'failed' : p.state === 'generating' ? 'generating' : 'idle';
  // An older server answers no takes: the turn is its one take.
  const takes: TakeView[] = p.takes?.length
    ? p.takes.map(({ turnId, aiText, reasoning, cost, errorCode, state }) => ({ turnId, aiText, reasoning, cost, errorCode, state }))
    : p.state === 'idle'
      ? []
      : [{ turnId: p.turnId ?? '', aiText: p.aiText, reasoning: p.reasoning, cost: p.cost, errorCode: p.errorCode, state: p.state }];
  const view = { phase, role: p.role, input: p.input, userText: p.userText, aiText: p.aiText, reasoning: p.reasoning, turnId: p.turnId, errorCode: p.errorCode, cost: p.cost, takes, shown: 0 };
  return takes.length ? showTake(view, takes.length - 1) : view;
}

/**
 * The generation flow of spec section 4: send (empty input continues), the streamed user and AI
 * parts, then undo / regenerate / edit / save / continue. One send per second and none while
 * generating; sending while an AI part is unsaved saves it first (the send carries it as edited: one
 * request, the server accepts it before the new turn). A generation the page did not see finish
 * (a dropped connection, the browser offline, a reload, another tab or device) is rejoined where the
 * page left it (turn-stream.ts); `reconnecting` says the connection is being tried again meanwhile.
 */
export function useTurn(storyId: string, model: ModelChoice, callbacks: TurnCallbacks) {
  const [view, setView] = useState<TurnView>({ ...EMPTY, phase: 'loading' });
  const viewRef = useRef(view);
  const cb = useRef(callbacks);
  useLayoutEffect(() => {
    viewRef.current = view;
    cb.current = callbacks;
  });
  // One send per second (the server's rule): a send asked for sooner waits for its moment instead of
  // failing, and `waiting` says so on screen. `readyAt` follows what the server counts from: the send's
  // arrival there, which is before its first event and before any pending-turn answer says otherwise.
  const readyAt = useRef(0);
  const [waiting, setWaiting] = useState(false);
  const [reconnecting, setReconnecting] = useState(false);
  // Stops the rejoin under way (a new send, leaving the page).
  const rejoining = useRef<AbortController | null>(null);
  const followRef = useRef<(from: string | null, turnId: string | null) => void>(() => undefined);
  const busy = useRef(false);
  const pollTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const alive = useRef(true);
  // Bumped by every send: a pending-turn answer that started before a send is stale on arrival.
  const epoch = useRef(0);

  // `edited`: the AI part as the user left it, kept while the server still holds that turn unsaved.
  const poll = useCallback(async (edited?: { turnId: string; aiText: string }) => {
    clearTimeout(pollTimer.current);
    const started = epoch.current;
    try {
      const pending = await getPendingTurn(storyId);
      if (!alive.current || started !== epoch.current) return;
      readyAt.current = Math.max(readyAt.current, Date.now() + (pending.retryAfterMs ?? 0));
      const fresh = fromPending(pending);
      // The take the user was looking at (and maybe editing) stays shown, as they left it.
      const at = edited && (pending.state === 'done' || pending.state === 'failed') ? fresh.takes.findIndex((t) => t.turnId === edited.turnId) : -1;
      setView(at >= 0 ? changeShown(showTake(fresh, at), { aiText: edited!.aiText }) : fresh);
      // Running (another tab or device sent it, or this page before a reload): followed live from where the stored text ends.
      if (pending.state === 'generating') followRef.current(positionOf(pending), pending.turnId);
    } catch (error) {
      if (alive.current) {
        setView((v) => ({ ...v, phase: v.phase === 'loading' ? 'idle' : v.phase }));
        cb.current.onError(error);
      }
    }
  }, [storyId]);

  /** Rejoins the turn from `from` (the last event id read) until it ends; the page's pending turn when there is none to rejoin. */
  const follow = useCallback(
    (from: string | null, turnId: string | null) => {
      rejoining.current?.abort();
      const stop = new AbortController();
      rejoining.current = stop;
      const started = epoch.current;
      const current = () => alive.current && started === epoch.current && !stop.signal.aborted;
      void rejoinTurn({
        storyId,
        from,
        turnId,
        signal: stop.signal,
        onReconnecting: (on) => {
          if (current()) setReconnecting(on);
        },
        onEvent: (event) => {
          if (!current()) return;
          if (event.type === 'summary') cb.current.onSummary(event.text);
          if (event.type === 'error') cb.current.onError(new ApiClientError(502, event.code, event.message));
          setView((v) => afterEvent(v, event));
        },
      }).then((end) => {
        if (!current()) return;
        setReconnecting(false);
        // Nothing to rejoin any more (accepted or dropped elsewhere, or it failed to start): as the server keeps it.
        if (end === 'none') pollTimer.current = setTimeout(() => void poll(), POLL_MS);
      });
    },
    [poll, storyId],
  );
  useLayoutEffect(() => {
    followRef.current = follow;
  });

  useEffect(() => {
    alive.current = true;
    void poll();
    return () => {
      alive.current = false;
      clearTimeout(pollTimer.current);
      rejoining.current?.abort();
    };
  }, [poll]);

  const accept = useCallback(async (): Promise<boolean> => {
    const v = viewRef.current;
    if (v.phase !== 'review' && v.phase !== 'failed') return true;
    try {
      const result = await acceptTurn(storyId, { userContent: v.userText, newContent: v.aiText, turnId: v.turnId ?? undefined });
      if (result.appended) cb.current.onAppended(result.appended);
      setView(EMPTY);
      return true;
    } catch (error) {
      cb.current.onError(error);
      return false;
    }
  }, [storyId]);

  const send = useCallback(
    async (role: string, content: string, regenerate = false): Promise<boolean> => {
      if (busy.current || viewRef.current.phase === 'generating' || viewRef.current.phase === 'loading') return false;
      busy.current = true;
      const early = readyAt.current - Date.now();
      if (early > 0) {
        setWaiting(true);
        await sleep(early);
        setWaiting(false);
        if (!alive.current) {
          busy.current = false;
          return false;
        }
      }
      readyAt.current = Date.now() + SEND_THROTTLE_MS;
      epoch.current++;
      clearTimeout(pollTimer.current);
      rejoining.current?.abort();
      // The unsaved turn, as the user edited it (the take shown): the send accepts it first (a
      // regenerate adds a take beside it instead).
      const before = viewRef.current;
      const pending: PendingTurnEditDto | undefined = !regenerate && (before.phase === 'review' || before.phase === 'failed') && before.turnId
        ? { turnId: before.turnId, userContent: before.userText, newContent: before.aiText }
        : undefined;
      // A regenerate keeps the done takes (a failed one is replaced) and shows the new one as it comes.
      const kept = regenerate && (before.phase === 'review' || before.phase === 'failed') ? before.takes.filter((t) => t.state === 'done') : [];
      const fresh: TakeView = { turnId: '', aiText: '', reasoning: '', cost: 0, errorCode: null, state: 'generating' };
      try {
        setView(showTake({ ...EMPTY, phase: 'generating', role, input: content, userText: regenerate ? before.userText : '', takes: [...kept, fresh] }, kept.length));
        let finished = false;
        let accepted = '';
        // Where the stream is (its last event id) and the turn's id: a connection that breaks is rejoined from there.
        let lastId: string | null = null;
        let turnId: string | null = null;
        const onEvent = (event: StreamEvent, id?: string) => {
          // Dropped for reading too slowly: the turn goes on, and is rejoined below.
          if (event.type === 'error' && event.code === 'STREAM_TOO_SLOW') return;
          if (id !== undefined) lastId = id;
          // The server has taken the send: the next one may go a second from now.
          if (event.type === 'user') {
            readyAt.current = Math.max(readyAt.current, Date.now() + SEND_THROTTLE_MS);
            turnId = event.turnId;
            if (event.appended) {
              accepted = event.appended;
              cb.current.onAppended(accepted);
            }
          }
          if (event.type === 'summary') cb.current.onSummary(event.text);
          if (event.type === 'done' || event.type === 'error') {
            finished = true;
            if (accepted) cb.current.onAppended('');
          }
          if (event.type === 'error') cb.current.onError(new ApiClientError(502, event.code, event.message));
          setView((v) => afterEvent(v, event));
        };
        const body = {
          role,
          content,
          model_name: model.name || undefined,
          model_type: model.name && model.type === CUSTOM_MODEL_TYPE ? CUSTOM_MODEL_TYPE : undefined,
          regenerate,
          accept: pending,
        };
        // Going offline ends the connection at once (the browser may keep a dead one open for long): the turn is rejoined.
        const connection = new AbortController();
        const drop = () => connection.abort();
        window.addEventListener('offline', drop);
        try {
          try {
            await sendTurn(storyId, body, onEvent, connection.signal);
          } catch (error) {
            // The server still counted less than a second (its clock started a little after ours, or
            // another tab sent): wait the second and send once more, instead of showing an error.
            if (!isApiClientError(error) || error.code !== 'SEND_TOO_FAST' || !alive.current) throw error;
            setWaiting(true);
            await sleep(SEND_THROTTLE_MS);
            setWaiting(false);
            readyAt.current = Date.now() + SEND_THROTTLE_MS;
            await sendTurn(storyId, body, onEvent, connection.signal);
          }
        } catch (error) {
          if (isApiClientError(error) && error.status > 0 && !finished && viewRef.current.aiText === '' && !viewRef.current.takes.at(-1)?.turnId) {
            // Refused before streaming: nothing happened (an unsaved turn is still there, shown as
            // edited), the line stays in the box.
            cb.current.onError(error);
            void poll(before.turnId && before.phase !== 'generating' ? { turnId: before.turnId, aiText: before.aiText } : undefined);
            return false;
          }
        } finally {
          window.removeEventListener('offline', drop);
        }
        // The connection ended early: the server finishes the turn; rejoin it where this stream stopped.
        if (!finished && alive.current) follow(lastId, turnId);
        return true;
      } finally {
        busy.current = false;
      }
    },
    [follow, model.name, model.type, poll, storyId],
  );

  const undo = useCallback(async (): Promise<{ role: string; input: string } | null> => {
    const v = viewRef.current;
    if (v.phase !== 'review' && v.phase !== 'failed') return null;
    try {
      const dropped = await discardTurn(storyId);
      setView(EMPTY);
      return { role: dropped.role || v.role, input: dropped.input || v.input };
    } catch (error) {
      cb.current.onError(error);
      return null;
    }
  }, [storyId]);

  const regenerate = useCallback(() => send(viewRef.current.role, viewRef.current.input, true), [send]);
  const continueStory = useCallback(() => send(viewRef.current.role, ''), [send]);
  const setAiText = useCallback((aiText: string) => setView((v) => changeShown(v, { aiText })), []);
  /** Shows another take (previous/next, a swipe); not while one is being written. */
  const showTakeAt = useCallback((index: number) => setView((v) => (v.phase === 'generating' ? v : showTake(v, index))), []);

  return { view, waiting, reconnecting, send, accept, undo, regenerate, continueStory, setAiText, showTake: showTakeAt };
}
