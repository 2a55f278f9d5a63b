import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { asDto } from '../common/nested-dto';
import { CUSTOM_MODEL_KEY_MAX_LENGTH, CUSTOM_MODEL_NAME_MAX_LENGTH, CUSTOM_MODEL_TYPE, CUSTOM_MODEL_URL_MAX_LENGTH } from '../custom-models/custom-model.dto';
import { ACCEPT_PART_MAX_LENGTH } from './accept-turn.dto';

export const TURN_ROLE_MAX_LENGTH = 50;
export const TURN_CONTENT_MAX_LENGTH = 10_000;

/**
 * The pending turn as the user leaves it when sending the next line: the send accepts it into the
 * story (the AI part as edited) before its own turn, instead of a separate `POST /api/llm/{id}/accept`.
 */
export class PendingTurnEditDto {
  /** The take being accepted (its turnId, from the `user`/`done` events or the pending turn's `takes`): a send naming a turn that is no longer pending appends nothing. */
  @IsString()
  @MaxLength(64)
  turnId!: string;

  @IsString()
  @MaxLength(ACCEPT_PART_MAX_LENGTH)
  userContent!: string;

  @IsString()
  @MaxLength(ACCEPT_PART_MAX_LENGTH)
  newContent!: string;
}

// The nested object becomes a PendingTurnEditDto here, not with @Type (which needs reflect-metadata in the browser).
const toEdit = ({ value }: { value: unknown }) => asDto(() => new PendingTurnEditDto())(value);

/**
 * `POST /api/llm/{id}`: write one line as `role` (empty: the narrator) and stream the continuation.
 * Empty `content` means "continue". `model_name` picks a platform model for this send, or with
 * `model_type: 'compatible_openai'` one of the user's custom models (else the story's choice, else the
 * default); with `base_url`, `api_key` and `model_name` the send's own OpenAI-compatible model, for this
 * send only (the key is never stored). `regenerate: true` adds a take (an alternative) to the pending (unaccepted) turn, beside its
 * earlier ones (at most TAKES_PER_TURN_MAX); otherwise a pending turn is accepted first, as `accept`
 * gives it (the take shown, with the user's edits), or its newest take as stored when `accept` is absent.
 */
export class SendTurnDto extends LocalizedDto {
  @IsOptional()
  @IsString()
  @MaxLength(TURN_ROLE_MAX_LENGTH)
  role?: string;

  @IsOptional()
  @IsString()
  @MaxLength(TURN_CONTENT_MAX_LENGTH)
  content?: string;

  @IsOptional()
  @IsBoolean()
  regenerate?: boolean;

  /** The pending turn as edited, accepted before this send (ignored with `regenerate`). */
  @IsOptional()
  @Transform(toEdit)
  @ValidateNested()
  accept?: PendingTurnEditDto;

  /**
   * `compatible_openai` (or absent) with `base_url` and `api_key`: the send's own model (see
   * `sendsOwnModel`); `compatible_openai` alone: one of the user's saved custom models, by `model_name`.
   */
  @IsOptional()
  @IsIn(['compatible_openai', 'platform', ''])
  @ValidateBy({
    name: 'ownModelType',
    validator: {
      validate: (value, args) => !sendsOwnModel(args?.object as SendTurnDto) || value === CUSTOM_MODEL_TYPE,
      defaultMessage: () => `model_type must be ${CUSTOM_MODEL_TYPE} (or left out) when the send gives base_url and api_key`,
    },
  })
  model_type?: string;

  /** A platform model's value, a saved custom model's name, or the provider's model name of the send's own model. */
  @ValidateIf(presentOrOwnModel)
  @ownModelText('model_name', CUSTOM_MODEL_NAME_MAX_LENGTH)
  model_name?: string;

  /** The send's own model's key: used for this request only, never stored, logged or answered. */
  @ValidateIf(presentOrOwnModel)
  @ownModelText('api_key', CUSTOM_MODEL_KEY_MAX_LENGTH)
  api_key?: string;

  /** The send's own model's base URL, with its version segment (…/v1), as for a custom model. */
  @ValidateIf(presentOrOwnModel)
  @ownModelText('base_url', CUSTOM_MODEL_URL_MAX_LENGTH)
  base_url?: string;

  /** The send's own model only: relay its reasoning apart from the story, as a custom model's setting does. */
  @IsOptional()
  @IsBoolean()
  enable_reasoning?: boolean;
}

const OWN_MODEL_FIELDS = 'base_url, api_key and model_name';

/**
 * Whether a send gives its own OpenAI-compatible model: a `base_url` or an `api_key` that is not blank
 * (blank ones are what a client that always sends every field sends for other models). Such a send
 * needs all of base_url, api_key and model_name; it uses that model for this send only.
 */
export function sendsOwnModel(o: Pick<SendTurnDto, 'base_url' | 'api_key'>): boolean {
  return !isBlank(o.base_url) || !isBlank(o.api_key);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function presentOrOwnModel(o: SendTurnDto, value: unknown): boolean {
  return value !== undefined || sendsOwnModel(o);
}

/**
 * One text field of the model choice: a string of at most `max` characters, which a send's own model
 * needs not blank (one rule, so that a missing field is told once, by what is missing).
 */
function ownModelText(field: string, max: number): PropertyDecorator {
  const problem = (value: unknown, object: SendTurnDto): string | null => {
    if (value !== undefined && typeof value !== 'string') return `${field} must be a string`;
    if (typeof value === 'string' && value.length > max) return `${field} must be at most ${max} characters`;
    if (sendsOwnModel(object) && isBlank(value)) return `${field} is required: a send with its own model gives ${OWN_MODEL_FIELDS} together`;
    return null;
  };
  return ValidateBy({
    name: 'ownModelText',
    constraints: [max],
    validator: {
      validate: (value, args) => problem(value, args?.object as SendTurnDto) === null,
      defaultMessage: (args) => problem(args?.value, args?.object as SendTurnDto) ?? `${field} is invalid`,
    },
  });
}
