import { ErrorCode } from '@taleloom/contracts';
import request from 'supertest';
import { createTestApp, type TestApp } from './test-app';

describe('the HTTP app', () => {
  let t: TestApp;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => t.close());

  it('GET /api/health says the database is up and which one runs', async () => {
    const res = await http().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.data.database).toBe('up');
    expect(['uri', 'memory-server', 'stand-in']).toContain(res.body.data.databaseKind);
  });

  it('gives every answer a request id, and keeps a sane one the caller sent', async () => {
    const fresh = await http().get('/api/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await http().get('/api/health').set('x-request-id', 'trace-123');
    expect(echoed.headers['x-request-id']).toBe('trace-123');
  });

  it('sends security headers', async () => {
    const res = await http().get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers an invalid JSON body with 400 INVALID_JSON, never a 500', async () => {
    const res = await http().post('/api/user/login').set('Content-Type', 'application/json').send('{"type":');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: ErrorCode.INVALID_JSON });
  });

  it('answers an oversize body with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await http()
      .post('/api/user/login')
      .send({ type: 'username', userName: 'x'.repeat(4096), password: 'secret1' });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
  });

  it('answers an unknown endpoint with 404 ROUTE_NOT_FOUND in the error envelope', async () => {
    const res = await http().get('/api/no-such-thing').set('Accept-Language', 'zh-CN,zh;q=0.9');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', code: ErrorCode.ROUTE_NOT_FOUND, message: '接口不存在。' });
  });

  it('serves Swagger UI and a document listing every endpoint with its DTO schema', async () => {
    const ui = await http().get('/api/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
    const doc = await http().get('/api/docs-json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/user/login', '/api/user/user-info']),
    );
    expect(doc.body.components.schemas.LoginDto.properties.password.minLength).toBe(6);
    expect(doc.body.paths['/api/user/login'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/LoginDto',
    );
  });
});

describe('health when the database is away', () => {
  it('answers 503 with database down', async () => {
    const t = await createTestApp();
    try {
      await t.connection.close();
      const res = await request(t.app.getHttpServer()).get('/api/health');
      expect(res.status).toBe(503);
      expect(res.body.data.database).toBe('down');
    } finally {
      await t.app.close();
    }
  });
});
