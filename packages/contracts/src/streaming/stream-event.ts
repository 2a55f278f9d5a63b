import type { TaskGroup, TaskGroupDraft, TaskSuggestions, TaskVerdict } from '../tasks/task';

/**
 * One server-sent event of a streamed answer: each SSE `data:` line is one of these as JSON.
 * A generation sends `user` (with `appended`: the earlier turn this send accepted into the story,
 * exactly as appended), optionally `summary` (older text was folded into the previous summary),
 * then `reasoning`/`delta` pieces, then `usage` and `done` — or `error` (the partial text is kept).
 * Task requests send `task_suggestion`s (each as soon as the model finished writing it) and then
 * `task_suggestions` (the stored set), or `task_verdict`s and then `task_scored`; `task_retry` says the
 * model's answer could not be read and it is asked once more (drop what was shown); then `usage` and
 * `done`, or `error`.
 *
 * Every event of a turn's stream (POST /api/llm/{id} and its rejoin, GET /api/llm/{id}/stream) carries
 * an SSE `id:`: its StreamPosition (`<text chars>:<reasoning chars>` after the event). A rejoin from an
 * id sends the text and reasoning after it (as one `delta` and one `reasoning` to catch up), then the
 * live events. `error` with code STREAM_TOO_SLOW ends only that connection (it read too slowly); the
 * generation goes on and a rejoin picks it up.
 */
export type StreamEvent =
  | { type: 'user'; text: string; role: string; turnId: string; appended?: string }
  | { type: 'summary'; text: string }
  | { type: 'delta'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'usage'; promptTokens: number; completionTokens: number; cost: number }
  | { type: 'done'; turnId: string }
  | { type: 'error'; code: string; message: string }
  | { type: 'task_suggestion'; batch: string; index: number; group: TaskGroupDraft }
  | { type: 'task_suggestions'; suggestions: TaskSuggestions }
  | { type: 'task_verdict'; verdict: TaskVerdict }
  | { type: 'task_scored'; index: number; group: TaskGroup; total_score: number; complete_task: number; current_turn: number }
  | { type: 'task_retry'; attempt: number };

export type StreamEventType = StreamEvent['type'];
