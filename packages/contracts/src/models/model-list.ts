/** Measured health of a platform model (spec section 3 "Model list entry"). */
export enum ModelStatus {
  FAST = 0,
  STABLE = 1,
  BUSY = 2,
  DELAY = 3,
  UNKNOWN = 4,
}

/** One entry of `GET /api/model_list`. */
export interface ModelListEntry {
  label: string;
  /** Cost in power of one full-length generation (the most a generation is charged). */
  points: number;
  /** What the story stores as `model_name` and what a send names. */
  value: string;
  status: ModelStatus;
  /** True for the offline demo model: the web labels it as a demo. */
  demo: boolean;
  /** Context window and longest reply, in tokens. */
  contextWindow: number;
  maxOutput: number;
}

/** Value of the offline demo model that ships as the embedded default. */
export const DEMO_MODEL_VALUE = 'demo';

/**
 * The model a story plays with, as the web keeps it (the story's `model_type` and `model_name`): a
 * platform model by value, or with `type: 'compatible_openai'` one of the user's own by name.
 */
export interface ModelChoice {
  /** `compatible_openai` for a custom model; `platform` or empty for a platform model. */
  type: string;
  name: string;
}
