import type { PlatformModel } from '../config/platform-models';

/** Power a generation costs: the model's price scaled by the share of the reply budget used (at least 1). */
export function generationCost(model: Pick<PlatformModel, 'points' | 'maxOutput'>, completionTokens: number, text: string): number {
  if (model.points <= 0 || !text) return 0;
  const share = Math.min(1, Math.max(0, completionTokens) / model.maxOutput);
  return Math.min(model.points, Math.max(1, Math.ceil(model.points * share)));
}
