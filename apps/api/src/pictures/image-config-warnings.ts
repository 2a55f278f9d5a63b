import type { PicSize } from '@taleloom/contracts';
import type { EnvironmentVariables } from '../config/env.validation';

// Story sizes many endpoints refuse as they are (OpenAI's models draw 1024 px and larger, in set shapes).
const SIZES_OFTEN_REFUSED: readonly PicSize[] = ['512*768', '512*1024'];

/**
 * What an operator of a real images endpoint should know at start-up (a valid configuration that
 * is probably not what they meant): one sentence each, naming what to set.
 */
export function imageConfigWarnings(env: Pick<EnvironmentVariables, 'IMAGES_PROVIDER' | 'IMAGES_POINTS' | 'IMAGES_SIZE_MAP'>): string[] {
  if (env.IMAGES_PROVIDER !== 'openai') return [];
  const warnings: string[] = [];
  if (env.IMAGES_POINTS === 0) {
    warnings.push(
      'Pictures cost users no power: IMAGES_POINTS is 0, so every picture (on demand, and after every accepted turn with the camera on) ' +
        "is paid by the images endpoint's key alone. Set IMAGES_POINTS to the power one picture costs.",
    );
  }
  const map = env.IMAGES_SIZE_MAP ? (JSON.parse(env.IMAGES_SIZE_MAP) as Partial<Record<PicSize, string>>) : {};
  const unmapped = SIZES_OFTEN_REFUSED.filter((size) => !map[size]);
  if (unmapped.length) {
    const asIs = unmapped.map((size) => size.replace('*', 'x'));
    const example = JSON.stringify(Object.fromEntries(unmapped.map((size) => [size, '1024x1536'])));
    warnings.push(
      `IMAGES_SIZE_MAP does not map ${unmapped.join(' and ')}: ${unmapped.length > 1 ? 'they go' : 'it goes'} to the images endpoint as ` +
        `${asIs.join(' and ')}, which many endpoints refuse (a story with that size then gets only failed pictures). ` +
        `Map each story size to one your endpoint draws, e.g. IMAGES_SIZE_MAP='${example}' for gpt-image-1.`,
    );
  }
  return warnings;
}
