import { ConfigError, validateEnv } from './env.validation';

describe('validateEnv', () => {
  it('fills every default from an empty environment', () => {
    const env = validateEnv({});
    expect(env).toMatchObject({ NODE_ENV: 'production', PORT: 3000, DATA_DIR: '.data', EMBEDDED_DATABASE: 'auto' });
  });

  it('counts check-in days in Asia/Shanghai unless told otherwise', () => {
    expect(validateEnv({}).CHECKIN_TIME_ZONE).toBe('Asia/Shanghai');
    expect(validateEnv({ CHECKIN_TIME_ZONE: 'UTC' }).CHECKIN_TIME_ZONE).toBe('UTC');
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
