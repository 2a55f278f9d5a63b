import { Injectable } from '@nestjs/common';
import { CUSTOM_MODEL_TYPE, TURN_CONTENT_MAX_LENGTH, TURN_ROLE_MAX_LENGTH, type SendTurnDto } from '@taleloom/contracts';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { likelyUser } from '../common/early-auth';
import { ModelChooser } from '../generation/model-chooser';
import { SendGuesses, type EarlyStart } from './send-guesses';
import { turnOf, type TurnSend } from './turn-send';
import { TurnRunner } from './turn.runner';

// POST /api/llm/{id}: a send.
const SEND_PATH = /^\/api\/llm\/([0-9a-f]{24})$/;

/** What of a send's body its early start was made on (compared by `take` with the validated body's). */
type SendFields = ReturnType<typeof sendFieldsOf>;
type SendFieldsInput = Pick<SendTurnDto, 'role' | 'content' | 'regenerate' | 'model_type' | 'model_name'> & {
  accept?: { turnId: string; userContent: string; newContent: string };
};

interface Arrived {
  userID: string;
  storyId: string;
  fields: SendFields;
  early: EarlyStart<TurnSend>;
}

// Requests whose provider request was started on arrival, until their send takes it or they end.
const arrivals = new WeakMap<IncomingMessage, Arrived>();

// The fields of SendTurnDto (and LocalizedDto's language).
const SEND_FIELDS = new Set(['role', 'content', 'regenerate', 'accept', 'model_type', 'model_name', 'api_key', 'base_url', 'enable_reasoning', 'language']);

const isString = (v: unknown): v is string => typeof v === 'string';
const optional = (v: unknown, is: (v: unknown) => boolean) => v === undefined || is(v);

// What the guess and the prompt are made of: the turn (as TurnSend reads it), the pending turn's
// acceptance and the model named.
function sendFieldsOf(body: SendFieldsInput) {
  const a = body.accept;
  return {
    ...turnOf(body),
    regenerate: body.regenerate === true,
    accept: a ? { turnId: a.turnId, userContent: a.userContent, newContent: a.newContent } : null,
    model_type: body.model_type ?? '',
    model_name: body.model_name ?? '',
  };
}

// The fields of a body as it came, when it has only the send DTO's fields, with their types and length
// limits (null: not so; the validation pipe answers such a body, and no provider request is made for it).
function fieldsOf(body: unknown): SendFields | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  for (const key in b) if (!SEND_FIELDS.has(key)) return null;
  if (!optional(b.role, (v) => isString(v) && v.length <= TURN_ROLE_MAX_LENGTH)) return null;
  if (!optional(b.content, (v) => isString(v) && v.length <= TURN_CONTENT_MAX_LENGTH)) return null;
  if (!optional(b.regenerate, (v) => typeof v === 'boolean')) return null;
  if (!optional(b.model_type, isString) || !optional(b.model_name, isString)) return null;
  const a = b.accept as Record<string, unknown> | null | undefined;
  if (a !== undefined && (typeof a !== 'object' || a === null || !isString(a.turnId) || !isString(a.userContent) || !isString(a.newContent))) return null;
  return sendFieldsOf(b as SendFieldsInput);
}

/**
 * A send's provider request, started as the request arrives: once its body is parsed and its token
 * checked (auth/token-fast-path.ts; also on a user read longer ago than the TTL, whom the guard reads again), before the router, guards, validation and the send's own checks
 * run (about a millisecond and a half of a lone send's way to its first token, measured). It is the
 * same early start a send makes on a guess of what its reads will answer (SendGuesses,
 * TurnRunner.startEarly), only made sooner, on the body as it came: the send takes it (`take`) only
 * when its validated body asks for what the guess assumed, and confirms it against its reads as
 * always; any other request (refused by a guard, by validation, or gone) aborts it before anything was
 * relayed, written or charged.
 */
@Injectable()
export class EarlyLane {
  constructor(
    private readonly guesses: SendGuesses,
    private readonly runner: TurnRunner,
    private readonly chooser: ModelChooser,
  ) {}

  /** The middleware, after the body parsers: a send it starts early goes on through the pipeline on the next turn. */
  middleware(): (req: Request, res: Response, next: NextFunction) => void {
    return (req, res, next) => {
      const arrived = req.method === 'POST' ? this.arrive(req) : null;
      if (!arrived) return next();
      arrivals.set(req, arrived);
      // A request that never reaches its send (refused, or its client gone) lets go of its provider request.
      res.once('close', () => {
        if (arrivals.get(req) !== arrived) return;
        arrivals.delete(req);
        void arrived.early.drop();
      });
      // undici writes the request in the check phase of this turn: it goes out before the rest of the pipeline runs.
      setImmediate(next);
    };
  }

  /**
   * The provider request started as the send arrived, when it was started for this user, story and
   * body (null: none, or one for another body, which is aborted).
   */
  take(req: IncomingMessage, userID: string, storyId: string, dto: SendTurnDto): EarlyStart<TurnSend> | null {
    const arrived = arrivals.get(req);
    if (!arrived) return null;
    arrivals.delete(req);
    if (arrived.userID === userID && arrived.storyId === storyId && isDeepStrictEqual(arrived.fields, sendFieldsOf(dto))) return arrived.early;
    this.guesses.counts.dropped++;
    void arrived.early.drop();
    return null;
  }

  private arrive(req: Request): Arrived | null {
    const storyId = SEND_PATH.exec(req.path)?.[1];
    if (!storyId) return null;
    // A user read longer ago than the TTL is only likely: the guard checks the token again, and a refusal undoes this start.
    const user = likelyUser(req);
    if (!user) return null;
    const fields = fieldsOf(req.body);
    if (!fields || fields.model_type === CUSTOM_MODEL_TYPE) return null;
    let named;
    try {
      named = this.chooser.namedPlatform(fields);
    } catch {
      // An unknown model: the send answers it.
      return null;
    }
    const guess = this.guesses.guess(user.userID, storyId, fields, named, Date.now());
    const early = guess ? this.runner.startEarly({ role: fields.role, content: fields.content }, guess) : null;
    return early ? { userID: user.userID, storyId, fields, early } : null;
  }
}
