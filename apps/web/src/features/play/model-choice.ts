export { CUSTOM_MODEL_TYPE } from '@taleloom/contracts';

/** The model a story plays with: a platform model by value, or one of the user's own by name. */
export interface ModelChoice {
  /** `compatible_openai` for a custom model; `platform` or empty for a platform model. */
  type: string;
  name: string;
}
