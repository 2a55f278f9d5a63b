import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import type { ModelStatus } from '../models/model-list';

/** The one interface type a custom model can have (spec section 9): OpenAI-compatible chat completions. */
export const CUSTOM_MODEL_TYPES = ['compatible_openai'] as const;
export type CustomModelType = (typeof CUSTOM_MODEL_TYPES)[number];
/** The `model_type` a story (or a send) gives for one of the user's own models. */
export const CUSTOM_MODEL_TYPE: CustomModelType = 'compatible_openai';

/** At most this many custom models per user (spec section 9). */
export const CUSTOM_MODEL_LIMIT = 3;
/** The provider's model name, e.g. `deepseek-chat` or `meta-llama/llama-3.3-70b-instruct`. */
export const CUSTOM_MODEL_NAME_MAX_LENGTH = 128;
export const CUSTOM_MODEL_URL_MAX_LENGTH = 512;
export const CUSTOM_MODEL_KEY_MAX_LENGTH = 1024;

// Surrounding blanks are never meant (a pasted key often carries a newline); blank means missing.
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * `POST /api/custom-models`: add a model of your own (your provider, your key). Name, address, key and
 * type are required; names are unique per user without regard to case. The key is stored encrypted and
 * never sent back.
 */
export class CreateCustomModelDto extends LocalizedDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(CUSTOM_MODEL_NAME_MAX_LENGTH)
  model_name!: string;

  /** The provider's base URL with its version segment (…/v1), without `/chat/completions`. */
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(CUSTOM_MODEL_URL_MAX_LENGTH)
  base_url!: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(CUSTOM_MODEL_KEY_MAX_LENGTH)
  api_key!: string;

  @IsIn(CUSTOM_MODEL_TYPES as unknown as string[])
  model_type!: CustomModelType;

  /** Show the model's reasoning (`reasoning_content`, or a leading `<think>` block) apart from the story. */
  @IsOptional()
  @IsBoolean()
  enable_reasoning?: boolean;
}

/**
 * `PUT /api/custom-models/{name}`: change a custom model. Absent fields keep their value; an absent or
 * empty `api_key` keeps the stored key (the form cannot show it).
 */
export class UpdateCustomModelDto extends LocalizedDto {
  @IsOptional()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(CUSTOM_MODEL_NAME_MAX_LENGTH)
  model_name?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(CUSTOM_MODEL_URL_MAX_LENGTH)
  base_url?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(CUSTOM_MODEL_KEY_MAX_LENGTH)
  api_key?: string;

  @IsOptional()
  @IsIn(CUSTOM_MODEL_TYPES as unknown as string[])
  model_type?: CustomModelType;

  @IsOptional()
  @IsBoolean()
  enable_reasoning?: boolean;
}

/**
 * `POST /api/custom-models/test`: try a model before (or after) saving it. The key is the one typed in,
 * or, when that is empty, the stored key of the saved model `saved_name` (editing without retyping it).
 */
export class TestCustomModelDto extends LocalizedDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(CUSTOM_MODEL_NAME_MAX_LENGTH)
  model_name!: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(CUSTOM_MODEL_URL_MAX_LENGTH)
  base_url!: string;

  @ValidateIf((o: TestCustomModelDto) => !o.saved_name || (o.api_key !== undefined && o.api_key !== ''))
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(CUSTOM_MODEL_KEY_MAX_LENGTH)
  api_key?: string;

  @IsIn(CUSTOM_MODEL_TYPES as unknown as string[])
  model_type!: CustomModelType;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(CUSTOM_MODEL_NAME_MAX_LENGTH)
  saved_name?: string;
}

/** One custom model as the API shows it: never the key, only its masked tail. */
export interface CustomModelView {
  model_name: string;
  base_url: string;
  model_type: CustomModelType;
  enable_reasoning: boolean;
  /** The key's last four characters behind a mask (`••••3f9a`; only the mask for short keys). */
  api_key_masked: string;
  /** Measured like platform models' status, from this user's recent calls. */
  status: ModelStatus;
  /** Epoch milliseconds. */
  created_at: number;
  updated_at: number;
}

/** `data` of a successful `POST /api/custom-models/test` (a one-token completion answered). */
export interface CustomModelTestData {
  /** Whether the provider's model list names the model; null when the provider has no list. */
  modelListed: boolean | null;
  /** Up to 20 model ids the provider lists, to help pick a name. */
  models: string[];
  latencyMs: number;
}

/** Why a base URL is refused before any request: not an http(s) URL, or it names the endpoint itself. */
export type BaseUrlProblem = 'format' | 'endpoint';

/**
 * The base URL rule shared by the form and the API: an http(s) URL without credentials, query or
 * fragment, whose version segment (`/v1`, `/v3`, …) is kept and which does not end with
 * `/chat/completions` (the client appends that itself).
 */
export function baseUrlProblem(raw: string): BaseUrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'format';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'format';
  if (!url.hostname || url.username || url.password || url.search || url.hash) return 'format';
  if (/\/(chat\/)?completions\/?$/i.test(url.pathname)) return 'endpoint';
  return null;
}

/** The stored form of a base URL: trimmed, without trailing slashes. */
export function normalizeBaseUrl(raw: string): string {
  return raw.trim().replace(/\/+$/, '');
}

/** Custom model names are compared without regard to case (spec section 5). */
export function customModelNameKey(name: string): string {
  return name.trim().normalize('NFKC').toLowerCase();
}
