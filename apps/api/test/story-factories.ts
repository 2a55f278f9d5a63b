import type { CreateStoryDto, LoginDto } from '@taleloom/contracts';
import request from 'supertest';
import type { TestApp } from './test-app';

export interface TestUser {
  token: string;
  userID: string;
  userName: string;
}

/** Registers a user by name and returns their token. */
export async function signUp(t: TestApp, userName: string): Promise<TestUser> {
  const res = await request(t.app.getHttpServer())
    .post('/api/user/login')
    .send({ type: 'username', userName, password: 'secret1' } satisfies LoginDto);
  if (res.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(res.body)}`);
  return { token: res.body.data.token, userID: res.body.data.userInfo.userID, userName };
}

/** A supertest agent bound to the app with the user's bearer token. */
export function as(t: TestApp, user: TestUser) {
  const http = request(t.app.getHttpServer());
  const auth = `Bearer ${user.token}`;
  return {
    get: (url: string) => http.get(url).set('Authorization', auth),
    post: (url: string, body?: object) => http.post(url).set('Authorization', auth).send(body ?? {}),
    patch: (url: string, body?: object) => http.patch(url).set('Authorization', auth).send(body ?? {}),
    put: (url: string, body?: object) => http.put(url).set('Authorization', auth).send(body ?? {}),
    delete: (url: string) => http.delete(url).set('Authorization', auth),
  };
}

/** Creates a story through the API and returns its id. */
export async function createStory(t: TestApp, user: TestUser, body: Partial<CreateStoryDto> = {}): Promise<string> {
  const res = await as(t, user).post('/api/llm', {
    name: 'A tale',
    prologue_and_characters: 'Once upon a time.\nThe end is near.',
    ...body,
  } satisfies CreateStoryDto);
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** Creates and publishes a story; returns its id. */
export async function publishedStory(t: TestApp, user: TestUser, body: Partial<CreateStoryDto> = {}): Promise<string> {
  const id = await createStory(t, user, body);
  const res = await as(t, user).post(`/api/user/public/${id}`);
  if (res.status !== 200) throw new Error(`publish failed: ${JSON.stringify(res.body)}`);
  return id;
}
