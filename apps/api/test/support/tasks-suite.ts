import type { AddTaskGroupDto, TaskGroup, TaskInfo, TaskTargetDto } from '@taleloom/contracts';
import { TurnRunner } from '../../src/play/turn.runner';
import { PowerService } from '../../src/power/power.service';
import { TaskRunner } from '../../src/tasks/task.runner';
import { as, createStory, type TestUser } from '../story-factories';
import type { TestApp } from '../test-app';
import { ofType, postEvents, sendTurn, stubModel, unthrottle } from './play-helpers';
import { stubAppSuite } from './stub-app-suite';

export const PROLOGUE = 'Mara waits at the pier. The ferry is late.\nIlan watches from the customs house.';

export const targetsOf = (group: TaskGroup): TaskTargetDto[] =>
  group.targets.map(({ id, title, type, score: s, completed }) => ({ id, title, type, score: s, completed }));

const drainRunners = (t: TestApp) => Promise.all([t.app.get(TaskRunner).drain(), t.app.get(TurnRunner).drain()]);

/**
 * The hooks and helpers of the task suites (/api/tasks): the stub as a paid and a free model, alice
 * with 1,000 power and bob; `suggest` and `score` stream as alice unless told.
 */
export function tasksSuite() {
  const s = stubAppSuite({
    env: (stub) => ({
      MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'stub', { contextWindow: 8192 }), stubModel(stub.baseURL, 'free', { points: 0, contextWindow: 8192 })]),
      DEMO_MODEL: 'off',
      PROVIDER_TIMEOUT_SECONDS: '5',
      // The operator allows the loopback address the stub listens on (a custom model test).
      CUSTOM_MODEL_ALLOWED_NETWORKS: '127.0.0.1/32',
    }),
    drain: drainRunners,
    each: async ({ stub, alice }) => {
      stub.set({ completionTokens: 200 });
      await grant(alice, 1000);
    },
  });
  const drain = () => drainRunners(s.t);
  const grant = (user: TestUser, amount: number) =>
    s.t.app.get(PowerService).grant(user.userID, amount, 'test', `test-grant-${Math.random()}`);

  const suggest = (id: string, user = s.alice) => postEvents(s.base, user.token, `/api/tasks/${id}/create`, {});
  const score = (id: string, index: number | string, body: object = {}, user = s.alice) =>
    postEvents(s.base, user.token, `/api/tasks/${id}/${index}/score`, body);
  const info = async (id: string): Promise<TaskInfo> => (await as(s.t, s.alice).get(`/api/tasks?story_id=${id}`)).body.data;

  /** A story with one accepted group (the stub's first suggestion); answers the story id and the info. */
  async function storyWithGroup(body: object = {}): Promise<{ id: string; info: TaskInfo }> {
    const id = await createStory(s.t, s.alice, { prologue_and_characters: PROLOGUE, ...body });
    const res = await suggest(id);
    const batch = ofType(res.events, 'task_suggestions')[0].suggestions.batch;
    const added = await as(s.t, s.alice).post(`/api/tasks/${id}/add_new`, { batch, index: 0 } satisfies AddTaskGroupDto);
    expect(added.status).toBe(200);
    return { id, info: added.body.data };
  }

  // Plays one turn whose text names `line` and accepts it: the plot moves on by a turn.
  async function playLine(id: string, line: string) {
    await unthrottle(s.t, id);
    const res = await sendTurn(s.base, s.alice.token, id, { role: 'Mara', content: line, model_name: 'free' });
    const turnId = (res.events.at(-1) as { turnId: string }).turnId;
    await as(s.t, s.alice).post(`/api/llm/${id}/accept`, { userContent: `Mara: ${line}`, newContent: 'The gulls cried.', turnId });
  }

  return Object.assign(s, { drain, grant, suggest, score, info, storyWithGroup, playLine });
}
