import { ConfigError } from './env.validation';
import { loadPlatformModels, parseModelList } from './platform-models';

const base = { MODELS_FILE: undefined, MODELS_JSON: undefined, DEMO_MODEL: 'auto' as const, DEMO_MODEL_POINTS: 0 };
const entry = { label: 'Fast', value: 'fast', points: 20, contextWindow: 32000, maxOutput: 800, baseURL: 'https://api.example.com/v1/', apiKeyEnv: 'EXAMPLE_KEY' };

describe('platform model configuration', () => {
  it('offers only the demo model when nothing is configured', () => {
    const models = loadPlatformModels(base);
    expect(models.map((m) => m.value)).toEqual(['demo']);
    expect(models[0].demo).toBe(true);
  });

  it('reads MODELS_JSON, keeps the order, fills defaults and drops the demo in auto mode', () => {
    const models = loadPlatformModels(
      { ...base, MODELS_JSON: JSON.stringify([entry, { value: 'local', baseURL: 'http://localhost:11434/v1' }]) },
      '/',
      { EXAMPLE_KEY: 'k' },
    );
    expect(models.map((m) => m.value)).toEqual(['fast', 'local']);
    expect(models[0]).toMatchObject({ baseURL: 'https://api.example.com/v1', model: 'fast', enableReasoning: false });
    expect(models[1]).toMatchObject({ label: 'local', points: 0, contextWindow: 8192, maxOutput: 512, apiKeyEnv: '' });
  });

  it('adds the demo with DEMO_MODEL=on and refuses an empty list with DEMO_MODEL=off', () => {
    const on = loadPlatformModels({ ...base, DEMO_MODEL: 'on', DEMO_MODEL_POINTS: 5, MODELS_JSON: JSON.stringify([{ ...entry, apiKeyEnv: '' }]) });
    expect(on.map((m) => [m.value, m.points])).toEqual([['fast', 20], ['demo', 5]]);
    expect(() => loadPlatformModels({ ...base, DEMO_MODEL: 'off' })).toThrow(/DEMO_MODEL/);
  });

  it.each([
    ['not json', /MODELS_JSON is not valid JSON/],
    ['{}', /must be a JSON array/],
    [JSON.stringify([{ ...entry, value: '' }]), /MODELS_JSON\[0\]\.value must be a non-empty string/],
    [JSON.stringify([{ ...entry, points: -1 }]), /MODELS_JSON\[0\]\.points/],
    [JSON.stringify([{ ...entry, baseURL: 'ftp://x' }]), /baseURL must be an http/],
    [JSON.stringify([{ ...entry, baseURL: 'https://x/v1/chat/completions' }]), /must not end with \/chat\/completions/],
    [JSON.stringify([{ ...entry, maxOutput: 20000 }]), /maxOutput must be less than half/],
    [JSON.stringify([entry]), /EXAMPLE_KEY .* is not set/],
  ])('stops start-up with a sentence naming the variable for %s', (json, message) => {
    expect(() => parseModelList(json, 'MODELS_JSON', {})).toThrow(ConfigError);
    expect(() => parseModelList(json, 'MODELS_JSON', {})).toThrow(message);
  });

  it('names MODELS_FILE when the file cannot be read', () => {
    expect(() => loadPlatformModels({ ...base, MODELS_FILE: '/nonexistent/models.json' })).toThrow(/MODELS_FILE/);
  });
});
