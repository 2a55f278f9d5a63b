import { ConfigError, validateEnv } from './env.validation';

describe('validateEnv', () => {
  it('fills every default from an empty environment', () => {
    const env = validateEnv({});
    expect(env).toMatchObject({ NODE_ENV: 'production', PORT: 3000, DATA_DIR: '.data', EMBEDDED_DATABASE: 'auto' });
  });

  it('charges for a demo generation (at most 80 power) unless told otherwise (0 makes it free)', () => {
    expect(validateEnv({}).DEMO_MODEL_POINTS).toBe(80);
    expect(validateEnv({ DEMO_MODEL_POINTS: '0' }).DEMO_MODEL_POINTS).toBe(0);
  });

  it('counts check-in days in Asia/Shanghai unless told otherwise', () => {
    expect(validateEnv({}).CHECKIN_TIME_ZONE).toBe('Asia/Shanghai');
    expect(validateEnv({ CHECKIN_TIME_ZONE: 'UTC' }).CHECKIN_TIME_ZONE).toBe('UTC');
  });

  it('draws pictures with the offline demo generator unless told otherwise', () => {
    expect(validateEnv({})).toMatchObject({ IMAGES_PROVIDER: 'demo', IMAGES_POINTS: 0, IMAGES_TIMEOUT_SECONDS: 120, IMAGES_RESPONSE_FORMAT: 'b64_json' });
    const openai = { IMAGES_PROVIDER: 'openai', IMAGES_BASE_URL: 'https://api.example.com/v1', IMAGES_MODEL: 'gpt-image-1' };
    expect(validateEnv({ ...openai, IMAGES_SIZE_MAP: '{"512*768":"1024x1536"}' }).IMAGES_MODEL).toBe('gpt-image-1');
    expect(() => validateEnv({ IMAGES_PROVIDER: 'openai' })).toThrow(/IMAGES_BASE_URL is required when IMAGES_PROVIDER is openai/);
    expect(() => validateEnv({ ...openai, IMAGES_SIZE_MAP: '{"600*600":"1024x1024"}' })).toThrow(/IMAGES_SIZE_MAP has an unknown size "600\*600"/);
    expect(() => validateEnv({ ...openai, IMAGES_SIZE_MAP: '{"512*512":"big"}' })).toThrow(/IMAGES_SIZE_MAP maps 512\*512 to "big"/);
    expect(() => validateEnv({ IMAGES_SIZE_MAP: '[' })).toThrow(/IMAGES_SIZE_MAP is not valid JSON/);
    expect(() => validateEnv({ IMAGES_TIMEOUT_SECONDS: '900' })).toThrow(/IMAGES_TIMEOUT_SECONDS/);
  });

  it('treats empty variables as unset', () => {
    expect(validateEnv({ MONGODB_URI: '', PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    ['PORT', 'eighty', /PORT/],
    ['PORT', '70000', /PORT/],
    ['MONGODB_URI', 'postgres://x', /MONGODB_URI must start with mongodb:\/\//],
    ['JWT_SECRET', 'short', /JWT_SECRET must be at least 32 characters/],
    ['NODE_ENV', 'staging', /NODE_ENV/],
    ['JWT_EXPIRES_IN', 'forever', /JWT_EXPIRES_IN/],
    ['CHECKIN_TIME_ZONE', 'Mars/Olympus', /CHECKIN_TIME_ZONE must be an IANA time zone/],
  ])('stops on a malformed %s with a sentence naming it', (name, value, pattern) => {
    expect(() => validateEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => validateEnv({ [name]: value })).toThrow(pattern);
  });
});
