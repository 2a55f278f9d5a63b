import type { CreateLoreEntryDto, LoreBookData } from '@taleloom/contracts';
import { TurnRunner } from '../../src/play/turn.runner';
import { as, type TestUser } from '../story-factories';
import type { TestApp } from '../test-app';
import { stubModel } from './play-helpers';
import { stubAppSuite } from './stub-app-suite';

export const entry = (title: string, keys: string[], content: string, more: Partial<CreateLoreEntryDto> = {}): CreateLoreEntryDto => ({ title, keys, content, ...more });

const drainTurns = (t: TestApp) => t.app.get(TurnRunner).drain();

/** The hooks and helpers of the lore suites (/api/lore, the context inspector): the stub as a free model, alice and bob. */
export function loreSuite() {
  const s = stubAppSuite({
    env: (stub) => ({ MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'stub', { points: 0 })]), PROVIDER_TIMEOUT_SECONDS: '5' }),
    drain: drainTurns,
  });
  const drain = () => drainTurns(s.t);
  const book = async (user: TestUser, id: string): Promise<LoreBookData> => (await as(s.t, user).get(`/api/lore/${id}`)).body.data;
  const add = async (user: TestUser, id: string, body: CreateLoreEntryDto) => {
    const res = await as(s.t, user).post(`/api/lore/${id}/entries`, body);
    expect(res.status).toBe(200);
    return res.body.data as LoreBookData;
  };
  return Object.assign(s, { drain, book, add });
}
