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
