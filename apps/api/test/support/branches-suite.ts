import type { BranchesData, CreateBranchDto, PendingTurnData, StoryData, StoryPicture, TaskInfo } from '@taleloom/contracts';
import { PictureRunner } from '../../src/pictures/picture.runner';
import { TurnRunner } from '../../src/play/turn.runner';
import { TaskRunner } from '../../src/tasks/task.runner';
import { as } from '../story-factories';
import type { TestApp } from '../test-app';
import { sendTurn, stubModel, unthrottle } from './play-helpers';
import { stubAppSuite } from './stub-app-suite';

export const PROLOGUE = 'Mara waits at the pier.';
export const reply = (n: number) => `Reply ${n}: The lamp flickered and the story went on.`;

const drainRunners = (t: TestApp) => Promise.all([t.app.get(TurnRunner).drain(), t.app.get(PictureRunner).drain(), t.app.get(TaskRunner).drain()]);

/**
 * The hooks and helpers of the branch suites (/api/llm/{id}/branches): the stub as the free model, the
 * offline demo generator drawing pictures, alice and bob; the helpers act as alice unless told.
 */
export function branchesSuite() {
  const s = stubAppSuite({
    env: (stub) => ({
      MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'free', { points: 0 })]),
      DEMO_MODEL: 'off',
      PROVIDER_TIMEOUT_SECONDS: '5',
      // The offline demo generator draws the pictures (its prompt is written by the story's model, the stub).
      IMAGES_PROVIDER: 'demo',
    }),
    drain: drainRunners,
    drainFirst: true,
    each: ({ stub }) => stub.set({ completionTokens: 200 }),
  });
  const drain = () => drainRunners(s.t);
  const story = async (id: string, user = s.alice): Promise<StoryData> => (await as(s.t, user).get(`/api/llm?id=${id}`)).body.data;
  const branches = async (id: string, user = s.alice): Promise<BranchesData> => (await as(s.t, user).get(`/api/llm/${id}/branches`)).body.data;
  const pictures = async (id: string): Promise<StoryPicture[]> => (await as(s.t, s.alice).get(`/api/llm/${id}/pictures`)).body.data.pictures;
  const tasks = async (id: string): Promise<TaskInfo> => (await as(s.t, s.alice).get(`/api/tasks?story_id=${id}`)).body.data;
  const pending = async (id: string): Promise<PendingTurnData> => (await as(s.t, s.alice).get(`/api/llm/${id}/pending`)).body.data;
  const fork = (id: string, body: CreateBranchDto, user = s.alice) => as(s.t, user).post(`/api/llm/${id}/branches`, body);
  const switchTo = (id: string, branch: string, user = s.alice) => as(s.t, user).post(`/api/llm/${id}/branches/${branch}/play`);
  // Accepts a passage (no generation): what a turn adds to the text; with the camera on it gets a picture.
  const accept = async (id: string, userContent: string, newContent: string) => {
    const res = await as(s.t, s.alice).post(`/api/llm/${id}/accept`, { userContent, newContent });
    expect(res.status).toBe(200);
    return res.body.data as { appended: string };
  };
  // Sends a line on the free model and answers the turn id (the turn stays pending).
  const send = async (id: string, content: string, regenerate = false) => {
    await unthrottle(s.t, id);
    const res = await sendTurn(s.base, s.alice.token, id, { role: 'Mara', content, model_name: 'free', regenerate });
    expect(res.events.at(-1)?.type).toBe('done');
    return (res.events.at(-1) as { turnId: string }).turnId;
  };
  return Object.assign(s, { drain, story, branches, pictures, tasks, pending, fork, switchTo, accept, send });
}
