import { Injectable } from '@nestjs/common';
import { CUSTOM_MODEL_TYPE, TURN_CONTENT_MAX_LENGTH, TURN_ROLE_MAX_LENGTH, type SendTurnDto } from '@taleloom/contracts';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { checkedUser } from '../common/early-auth';
import { ModelChooser } from '../generation/model-chooser';
import { SendGuesses, type EarlyStart } from './send-guesses';
import type { TurnSend } from './turn-send';
import { TurnRunner } from './turn.runner';

// POST /api/llm/{id}: a send.
const SEND_PATH = /^\/api\/llm\/([0-9a-f]{24})$/;

/** What of a send's body its guess depends on, beside its role and content (compared by `take`). */
type GuessFields = { regenerate: boolean; accept: { turnId: string; userContent: string; newContent: string } | null; model_type: string; model_name: string };

interface Arrived {
  userID: string;
  storyId: string;
  fields: GuessFields;
  early: EarlyStart<TurnSend>;
  taken: boolean;
}

const arrivals = new WeakMap<IncomingMessage, Arrived>();

// The fields of SendTurnDto (and LocalizedDto's language).
const SEND_FIELDS = new Set(['role', 'content', 'regenerate', 'accept', 'model_type', 'model_name', 'api_key', 'base_url', 'enable_reasoning', 'language']);

const isString = (v: unknown): v is string => typeof v === 'string';
const optional = (v: unknown, is: (v: unknown) => boolean) => v === undefined || is(v);

// The fields of a body as it came, when they have the types the send's DTO gives them (null: not so;
// the validation pipe answers such a body).
function fieldsOf(body: unknown): (GuessFields & { role: string; content: string }) | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  // A field the DTO does not have is refused by validation: no provider request for such a body.
  for (const key in b) if (!SEND_FIELDS.has(key)) return null;
  if (!optional(b.role, (v) => isString(v) && v.length <= TURN_ROLE_MAX_LENGTH)) return null;
  if (!optional(b.content, (v) => isString(v) && v.length <= TURN_CONTENT_MAX_LENGTH)) return null;
  if (!optional(b.regenerate, (v) => typeof v === 'boolean')) return null;
  if (!optional(b.model_type, isString) || !optional(b.model_name, isString)) return null;
  let accept: GuessFields['accept'] = null;
  if (b.accept !== undefined) {
    const a = b.accept as Record<string, unknown> | null;
    if (typeof a !== 'object' || a === null || !isString(a.turnId) || !isString(a.userContent) || !isString(a.newContent)) return null;
    accept = { turnId: a.turnId, userContent: a.userContent, newContent: a.newContent };
  }
  return {
    role: isString(b.role) ? b.role.trim() : '',
    content: isString(b.content) ? b.content : '',
    regenerate: b.regenerate === true,
    accept,
    model_type: (b.model_type as string | undefined) ?? '',
    model_name: (b.model_name as string | undefined) ?? '',
  };
}

function guessFieldsOf(dto: SendTurnDto): GuessFields {
  const a = dto.accept;
  return {
    regenerate: dto.regenerate === true,
    accept: a ? { turnId: a.turnId, userContent: a.userContent, newContent: a.newContent } : null,
    model_type: dto.model_type ?? '',
    model_name: dto.model_name ?? '',
  };
}

/**
 * A send's provider request, started as the request arrives: once its body is parsed and its token
 * checked (auth/token-fast-path.ts), before the router, guards, validation and the send's own checks
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
      res.once('close', () => this.leave(arrived));
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
    if (!arrived || arrived.taken) return null;
    arrived.taken = true;
    arrivals.delete(req);
    if (arrived.userID === userID && arrived.storyId === storyId && isDeepStrictEqual(arrived.fields, guessFieldsOf(dto))) return arrived.early;
    this.guesses.counts.dropped++;
    void arrived.early.drop();
    return null;
  }

  private arrive(req: Request): Arrived | null {
    const storyId = SEND_PATH.exec(req.path)?.[1];
    if (!storyId) return null;
    const user = checkedUser(req);
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
    if (!early) return null;
    const { role: _role, content: _content, ...rest } = fields;
    return { userID: user.userID, storyId, fields: rest, early, taken: false };
  }

  private leave(arrived: Arrived): void {
    if (arrived.taken) return;
    arrived.taken = true;
    void arrived.early.drop();
  }
}
