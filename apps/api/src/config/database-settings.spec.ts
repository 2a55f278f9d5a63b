import { databaseSettings } from './database-settings';
import { validateEnv } from './env.validation';

// verify:ledger reads the database settings without the app's validation: both read them alike.
describe('the database settings', () => {
  it('read as the app reads them: defaults, and an empty setting as unset', () => {
    for (const env of [{}, { MONGODB_URI: '', EMBEDDED_DATABASE: '', DATA_DIR: '' }, { MONGODB_URI: 'mongodb://127.0.0.1:27017/tl', EMBEDDED_DATABASE: 'stand-in', DATA_DIR: '/srv/tl' }]) {
      const app = validateEnv(env);
      expect(databaseSettings(env)).toEqual({ MONGODB_URI: app.MONGODB_URI, EMBEDDED_DATABASE: app.EMBEDDED_DATABASE, DATA_DIR: app.DATA_DIR });
    }
  });

  it('refuses what the app refuses, in one sentence naming the setting', () => {
    for (const [name, value] of [
      ['MONGODB_URI', 'http://127.0.0.1'],
      ['EMBEDDED_DATABASE', 'sqlite'],
    ] as const) {
      expect(() => validateEnv({ [name]: value })).toThrow(name);
      expect(() => databaseSettings({ [name]: value })).toThrow(`Configuration variable ${name} is invalid (got "${value}"): `);
    }
  });
});
