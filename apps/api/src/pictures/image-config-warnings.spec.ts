import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import type { EnvironmentVariables } from '../config/env.validation';
import { imageConfigWarnings } from './image-config-warnings';
import { ImageGenerator } from './image-generator';

const OPENAI = { IMAGES_PROVIDER: 'openai', IMAGES_POINTS: 20, IMAGES_SIZE_MAP: '{"512*768":"1024x1536","512*1024":"1024x1536"}' } as const;

describe('start-up warnings about the images configuration', () => {
  it('warns that pictures are free when a real endpoint draws them with IMAGES_POINTS 0', () => {
    const [warning, ...rest] = imageConfigWarnings({ ...OPENAI, IMAGES_POINTS: 0 });
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^Pictures cost users no power: IMAGES_POINTS is 0/);
    expect(warning).toContain('Set IMAGES_POINTS');
  });

  it('warns that portrait sizes go out as they are without a size map, and says how to map them', () => {
    const [warning, ...rest] = imageConfigWarnings({ ...OPENAI, IMAGES_SIZE_MAP: undefined });
    expect(rest).toEqual([]);
    expect(warning).toContain('IMAGES_SIZE_MAP does not map 512*768 and 512*1024: they go to the images endpoint as 512x768 and 512x1024');
    expect(warning).toContain(`IMAGES_SIZE_MAP='{"512*768":"1024x1536","512*1024":"1024x1536"}'`);
    // A map that leaves one out names that one.
    const [partial] = imageConfigWarnings({ ...OPENAI, IMAGES_SIZE_MAP: '{"512*1024":"1024x1536"}' });
    expect(partial).toContain('does not map 512*768: it goes to the images endpoint as 512x768');
  });

  it('says nothing for a priced, mapped endpoint, nor for the demo generator or pictures off', () => {
    expect(imageConfigWarnings(OPENAI)).toEqual([]);
    for (const provider of ['demo', 'off'] as const) expect(imageConfigWarnings({ IMAGES_PROVIDER: provider, IMAGES_POINTS: 0 })).toEqual([]);
  });

  it('is logged once, as warnings, when the generator starts', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    vi.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    try {
      const env = { ...OPENAI, IMAGES_POINTS: 0, IMAGES_SIZE_MAP: undefined, IMAGES_BASE_URL: 'https://images.example/v1', IMAGES_MODEL: 'm' };
      await new ImageGenerator({ env: env as unknown as EnvironmentVariables } as AppConfig).onModuleInit();
      expect(warn.mock.calls.map(([message]) => message)).toEqual(imageConfigWarnings(env));
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
