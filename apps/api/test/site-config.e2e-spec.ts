import request from 'supertest';
import { signUp } from './story-factories';
import { createTestApp, type TestApp } from './test-app';

describe('GET /api/site-config', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('answers the operator-configured QQ group, Discord link and activity', async () => {
    t = await createTestApp({
      SITE_QQ_GROUP_NUMBER: '123456789',
      SITE_QQ_GROUP_IMAGE_URL: 'https://example.com/qq.png',
      SITE_QQ_GROUP_LINK: 'https://qm.qq.com/q/abc',
      SITE_DISCORD_URL: 'https://discord.gg/taleloom',
      SITE_ACTIVITY_TITLE: 'Spring writing contest',
      SITE_ACTIVITY_LINK: '/202402sfact',
    });
    const user = await signUp(t, 'alice');
    const res = await request(t.app.getHttpServer()).get('/api/site-config').set('Authorization', `Bearer ${user.token}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      qqGroup: { number: '123456789', imageUrl: 'https://example.com/qq.png', link: 'https://qm.qq.com/q/abc' },
      discordUrl: 'https://discord.gg/taleloom',
      activity: { title: 'Spring writing contest', imageUrl: '', link: '/202402sfact' },
    });
  });

  it('answers nulls when nothing is configured, and needs a token', async () => {
    t = await createTestApp();
    const user = await signUp(t, 'bob');
    const res = await request(t.app.getHttpServer()).get('/api/site-config').set('Authorization', `Bearer ${user.token}`);
    expect(res.body.data).toEqual({ qqGroup: null, discordUrl: null, activity: null });
    expect((await request(t.app.getHttpServer()).get('/api/site-config')).status).toBe(401);
  });
});
