import { Logger, type ArgumentsHost } from '@nestjs/common';
import { ErrorCode } from '@taleloom/contracts';
import { mongo } from 'mongoose';
import type { MockInstance } from 'vitest';
import { ApiExceptionFilter } from './api-exception.filter';
import { RetriesExhausted } from './app-exception';

function answer(exception: unknown) {
  const res = {
    headersSent: false,
    statusCode: 0,
    body: undefined as unknown,
    setHeader: vi.fn(),
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    json(body: unknown) {
      this.body = body;
      return this;
    },
  };
  const req = { headers: {}, query: {}, body: {} };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  new ApiExceptionFilter().catch(exception, host);
  return res;
}

describe('ApiExceptionFilter and the database', () => {
  let warn: MockInstance;
  beforeEach(() => {
    warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('a retry loop that gave up answers 503 DATABASE_UNAVAILABLE but says in the log what happened', () => {
    const res = answer(new RetriesExhausted('changing the tasks of story 1'));
    expect(res.statusCode).toBe(503);
    expect(res.body).toMatchObject({ status: 'error', code: ErrorCode.DATABASE_UNAVAILABLE });
    expect(warn).toHaveBeenCalledWith('gave up after repeated write conflicts: changing the tasks of story 1');
  });

  it('a database that cannot be reached is one "database unavailable" line, not a stack', () => {
    const res = answer(new mongo.MongoNetworkError('connection reset'));
    expect(res.statusCode).toBe(503);
    expect(warn).toHaveBeenCalledWith('database unavailable: connection reset');
  });
});
