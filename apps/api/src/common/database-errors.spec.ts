import { mongo } from 'mongoose';
import { isDatabaseUnavailable } from './database-errors';

describe('isDatabaseUnavailable', () => {
  it('is true for a database that cannot be reached now', () => {
    expect(isDatabaseUnavailable(new mongo.MongoNetworkError('connection reset'))).toBe(true);
    expect(isDatabaseUnavailable(new mongo.MongoNetworkTimeoutError('timed out'))).toBe(true);
    expect(isDatabaseUnavailable(new mongo.MongoServerSelectionError('no server', { type: 'Single' } as never))).toBe(true);
    expect(isDatabaseUnavailable(new mongo.MongoNotConnectedError('not connected'))).toBe(true);
    expect(isDatabaseUnavailable(new mongo.MongoServerError({ code: 91, errmsg: 'ShutdownInProgress' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('Operation `users.findOne()` buffering timed out after 10000ms'), { name: 'MongooseError' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: new mongo.MongoNetworkError('reset') }))).toBe(true);
  });

  it('is false for errors that are not about reaching the database', () => {
    expect(isDatabaseUnavailable(new mongo.MongoServerError({ code: 11000, errmsg: 'duplicate key' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('bug'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('Cast to ObjectId failed'), { name: 'MongooseError' }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
