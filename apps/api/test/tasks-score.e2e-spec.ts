import { ErrorCode, type TaskInfo } from '@taleloom/contracts';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { ofType, sendTurn, unthrottle } from './support/play-helpers';
import type { OpenAIStub } from './support/openai-stub';
import { PROLOGUE, targetsOf, tasksSuite } from './support/tasks-suite';
import type { TestApp } from './test-app';

describe('tasks: scoring against the story, status and play modes (/api/tasks/{id}/{index}/score, status)', () => {
  const suite = tasksSuite();
  const { drain, grant, suggest, score, info, storyWithGroup, playLine } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser;
  beforeEach(() => void ({ t, stub, base, alice } = suite));

  it('scoring refused for want of power, or failed by the provider, charges nothing and completes nothing', async () => {
    const noDrift = async () => expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
    // Just enough power for one suggestion: the group exists, then the scoring cannot be paid for.
    const poor = await signUp(t, 'poor');
    await grant(poor, 100);
    const pid = await createStory(t, poor, { prologue_and_characters: PROLOGUE });
    const batch = ofType((await suggest(pid, poor)).events, 'task_suggestions')[0].suggestions.batch;
    expect((await as(t, poor).post(`/api/tasks/${pid}/add_new`, { batch, index: 0 })).status).toBe(200);
    await drain();
    expect(await balanceOf(t, poor.userID)).toBe(0);
    const requests = stub.requests;
    const broke = await score(pid, 0, {}, poor);
    expect([broke.status, broke.body?.code]).toEqual([402, ErrorCode.NOT_ENOUGH_POWER]);
    // Refused before the model was asked or anything was held.
    expect(stub.requests).toBe(requests);
    expect(await balanceOf(t, poor.userID)).toBe(0);
    expect((await entriesOf(t, poor.userID, { kind: 'hold' })).map((e) => String(e.key).split(':')[0])).toEqual(['tasks-create']);
    const poorInfo: TaskInfo = (await as(t, poor).get(`/api/tasks?story_id=${pid}`)).body.data;
    expect(poorInfo).toMatchObject({ total_score: 0, total_forbidden_turns: 0 });
    expect(poorInfo.tasks_list[0]).toMatchObject({ score: 0, tasks_scored_at_turn: null });
    expect(poorInfo.tasks_list[0].targets.map((x) => x.completed)).toEqual([false, false]);
    expect((await as(t, poor).get(`/api/tasks/status/${pid}`)).body.data).toMatchObject({ running: null, list: [{ can_score: true }] });
    await noDrift();

    // A provider failure after the hold: the hold is released, nothing is completed, the turn can still be scored.
    const { id } = await storyWithGroup();
    await playLine(id, 'I find the lighthouse key under a loose stone.');
    await drain();
    const before = await balanceOf(t, alice.userID);
    const releases = (await entriesOf(t, alice.userID, { kind: 'release' })).length;
    stub.set({ httpStatus: 500 });
    const failed = await score(id, 0, { tasks_id: 1 });
    expect(failed.status).toBe(200);
    expect(ofType(failed.events, 'task_verdict')).toEqual([]);
    expect(failed.events.at(-1)).toMatchObject({ type: 'error', code: ErrorCode.PROVIDER_ERROR });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(before);
    expect(await entriesOf(t, alice.userID, { kind: 'release' })).toHaveLength(releases + 1);
    await noDrift();
    const after = await info(id);
    expect(after).toMatchObject({ total_score: 0, complete_task: 0, total_forbidden_turns: 0 });
    expect(after.tasks_list[0]).toMatchObject({ score: 0, tasks_scored_at_turn: null });
    expect(after.tasks_list[0].targets.map((x) => [x.completed, x.evidence])).toEqual([[false, ''], [false, '']]);
    // The request slot is free and the same turn is scored (and charged) once the provider answers.
    stub.set({ completionTokens: 200 });
    const retried = await score(id, 0, { tasks_id: 1 });
    expect(ofType(retried.events, 'task_scored')[0]).toMatchObject({ total_score: 2, current_turn: 1 });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(before - 100);
    await noDrift();
  });

  it('scores: streams a verdict per open target, each completion cites its passage; once per turn', async () => {
    const { id } = await storyWithGroup();
    await playLine(id, 'I find the lighthouse key under a loose stone.');
    stub.set({ completionTokens: 200 });
    const before = await balanceOf(t, alice.userID);
    const res = await score(id, 0, { tasks_id: 1 });
    expect(res.status).toBe(200);
    const verdicts = ofType(res.events, 'task_verdict').map((e) => e.verdict);
    expect(verdicts).toEqual([
      {
        index: 0, target_id: expect.any(String), completed: true, evidence: 'Mara: I find the lighthouse key under a loose stone.',
        reason: 'The story shows it.', probability: 100, unproven: false,
      },
      { index: 1, target_id: expect.any(String), completed: false, evidence: '', reason: 'It has not happened yet.', probability: 40, unproven: false },
    ]);
    const scored = ofType(res.events, 'task_scored')[0];
    expect(scored).toMatchObject({ index: 0, total_score: 2, complete_task: 0, current_turn: 1 });
    expect(scored.group).toMatchObject({ score: 2, tasks_scored_at_turn: 1 });
    expect(scored.group.targets[0]).toMatchObject({ completed: true, complete_turn: 1, current_probability: 100, original_probability: 60 });
    expect(scored.group.targets[1]).toMatchObject({ completed: false, current_probability: 40, original_probability: 70 });
    // The judge saw the story and the open targets, numbered.
    const prompt = stub.bodies.at(-1)!.messages[1].content;
    expect(prompt).toContain('<targets-to-score>\n1. [reality] Find the lighthouse key\n2. [emotion] Earn the harbour master\'s trust\n</targets-to-score>');
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(before - 100);

    // Same turn again: the already-scored warning, counted, nothing charged or asked.
    const requests = stub.requests;
    const again = await score(id, 0);
    expect([again.status, again.body?.code]).toEqual([409, ErrorCode.TASK_ALREADY_SCORED]);
    expect(stub.requests).toBe(requests);
    const after = await info(id);
    expect(after).toMatchObject({ total_score: 2, total_forbidden_turns: 1, current_turn: 1 });

    // Completed targets cannot be edited, left out, or their group deleted.
    const targets = targetsOf(after.tasks_list[0]);
    const renamed = await as(t, alice).put(`/api/tasks/${id}/1`, { targets: [{ ...targets[0], title: 'Lose the key' }, targets[1]] });
    expect([renamed.status, renamed.body.code, renamed.body.params, renamed.body.details[0].field]).toEqual([
      409, ErrorCode.TASK_COMPLETED, { task: 1, field: 'title' }, 'targets.0.title',
    ]);
    expect(renamed.body.message).toBe('Task 1: completed tasks cannot be edited or deleted.');
    const dropped = await as(t, alice).put(`/api/tasks/${id}/1`, { targets: [targets[1]] });
    expect([dropped.body.code, dropped.body.params.task]).toEqual([ErrorCode.TASK_COMPLETED, 1]);
    const open = await as(t, alice).put(`/api/tasks/${id}/1`, { targets: [targets[0], { ...targets[1], score: 3 }] });
    expect(open.status).toBe(200);
    const del = await as(t, alice).delete(`/api/tasks/${id}/0`).set('Accept-Language', 'zh-CN');
    expect([del.status, del.body.code, del.body.message]).toEqual([409, ErrorCode.TASK_COMPLETED, '任务 1：已完成的任务不能编辑或删除。']);

    // A new turn: the rest can be scored; when every target is done the group is complete.
    await playLine(id, "At last I earn the harbour master's trust.");
    const last = await score(id, 0);
    const done = ofType(last.events, 'task_scored')[0];
    expect(done).toMatchObject({ total_score: 5, complete_task: 1, current_turn: 2 });
    expect(stub.bodies.at(-1)!.messages[1].content).toContain("<targets-to-score>\n1. [emotion] Earn the harbour master's trust\n</targets-to-score>");
    expect((await info(id)).current_tasks_id).toBeNull();
    await drain();

    // A complete group has nothing left to score, on this turn or a later one: its own answer, not counted
    // as a refused turn, nothing asked or charged.
    const spent = await balanceOf(t, alice.userID);
    const asked = stub.requests;
    const nothing = await score(id, 0, { language: 'zh-CN' });
    expect([nothing.status, nothing.body?.code, nothing.body?.message]).toEqual([409, ErrorCode.TASK_NOTHING_TO_SCORE, '该任务组的任务已全部完成，没有可以评分的任务了。']);
    await playLine(id, 'The ferry arrives at last.');
    const later = await score(id, 0, { tasks_id: 1 });
    expect([later.status, later.body?.code, later.body?.message]).toEqual([409, ErrorCode.TASK_NOTHING_TO_SCORE, 'Every task of this group is completed: there is nothing left to score.']);
    expect(stub.requests).toBe(asked + 1); // the turn played above, no scoring
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(spent);
    expect(await info(id)).toMatchObject({ total_score: 5, complete_task: 1, total_forbidden_turns: 1, current_turn: 3 });
    expect((await as(t, alice).get(`/api/tasks/status/${id}`)).body.data.list[0]).toMatchObject({ can_score: false, completed_targets: 2, total_targets: 2 });
  });

  it('does not count a completion whose quote is not in the story', async () => {
    const { id, info: start } = await storyWithGroup();
    stub.set({
      completionTokens: 200,
      chunks: () => [JSON.stringify({ targets: [
        { index: 1, completed: true, evidence: 'Mara found the lighthouse key at dawn.', reason: 'She found it.', probability: 100 },
        { index: 2, completed: true, evidence: 'Mara waits at the pier.', reason: 'Trust.', probability: 90 },
      ] })],
    });
    const res = await score(id, 0);
    const verdicts = ofType(res.events, 'task_verdict').map((e) => e.verdict);
    expect(verdicts.map((v) => [v.completed, v.unproven])).toEqual([[false, true], [true, false]]);
    const group = ofType(res.events, 'task_scored')[0].group;
    expect(group.targets.map((x) => [x.completed, x.evidence])).toEqual([[false, ''], [true, 'Mara waits at the pier.']]);
    expect(group.score).toBe(start.tasks_list[0].targets[1].score);
  });

  it('reports status for the 30-second poll: totals, rev and which groups can be scored', async () => {
    const { id } = await storyWithGroup();
    const first = (await as(t, alice).get(`/api/tasks/status/${id}`)).body.data;
    expect(first).toMatchObject({
      current_turn: 0, current_tasks_id: 1, total_score: 0, complete_task: 0, total_forbidden_turns: 0, running: null,
      list: [{ index: 0, tasks_id: 1, series_name: 'Harbour secrets', score: 0, max_score: 3, completed_targets: 0, total_targets: 2, tasks_scored_at_turn: null, can_score: true }],
    });
    await score(id, 0);
    const second = (await as(t, alice).get(`/api/tasks/status/${id}`)).body.data;
    expect(second.rev).toBeGreaterThan(first.rev);
    expect(second.list[0]).toMatchObject({ tasks_scored_at_turn: 0, can_score: false });
  });

  it('puts the open targets of the current group into the prompt in the task modes, and none in free play', async () => {
    const { id } = await storyWithGroup({ goal: 'Leave the island' });
    const lastPrompt = () => stub.bodies.at(-1)!.messages[0].content;
    const play = async (mode: 'fly_free' | 'tasks_guider' | 'tasks_master') => {
      expect((await as(t, alice).patch(`/api/llm?id=${id}`, { play_mode: mode })).status).toBe(200);
      await unthrottle(t, id);
      await sendTurn(base, alice.token, id, { content: 'Go on', model_name: 'free', regenerate: true });
      return lastPrompt();
    };
    const free = await play('fly_free');
    expect(free).toContain('Play mode: free');
    expect(free).not.toContain('lighthouse key');
    const guide = await play('tasks_guider');
    expect(guide).toContain('Nudge the player toward the open goals below');
    expect(guide).toContain('Goal: Leave the island');
    expect(guide).toContain("Open goals:\n- (event) Find the lighthouse key\n- (feeling) Earn the harbour master's trust");
    const master = await play('tasks_master');
    expect(master).toContain('Drive the plot toward the open goals below');
    expect(master).toContain('- (event) Find the lighthouse key');
    // A completed target is no longer steered toward.
    await playLine(id, 'I find the lighthouse key.');
    await score(id, 0);
    expect(await play('tasks_master')).not.toContain('lighthouse key');
  });
});
