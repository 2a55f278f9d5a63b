import {
  mainTextEdit,
  BRANCHES_PER_STORY_MAX,
  ErrorCode,
  type BranchesData,
  type BranchSwitchData,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import request from 'supertest';
import { BranchMoves, type BranchStep } from '../src/branches/branch-moves';
import { as, createStory, type TestUser } from './story-factories';
import type { OpenAIStub } from './support/openai-stub';
import { sendTurn, textOf, unthrottle } from './support/play-helpers';
import type { TestApp } from './test-app';
import { branchesSuite, PROLOGUE, reply } from './support/branches-suite';

describe('branches: bad input, limits, one change at a time, interrupted changes, access (/api/llm/{id}/branches)', () => {
  const suite = branchesSuite();
  const { drain, story, branches, pending, fork, switchTo, send } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser;
  beforeEach(() => void ({ t, stub, base, alice } = suite));

  it('refuses bad input with clear codes in both languages and changes nothing', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    const before = await story(id);
    const zero = await fork(id, { at: 0 });
    expect([zero.status, zero.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    const beyond = await as(t, alice).post(`/api/llm/${id}/branches`, { at: PROLOGUE.length + 1, language: 'zh-CN' });
    expect([beyond.status, beyond.body.code, beyond.body.message]).toEqual([400, ErrorCode.BRANCH_POINT_INVALID, '分支必须从故事正文之内开始。']);
    const junk = await as(t, alice).post(`/api/llm/${id}/branches`, { at: 3, from_branch: { $ne: '' } });
    expect([junk.status, junk.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    const long = await fork(id, { at: 3, name: 'n'.repeat(61) });
    expect([long.status, long.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    for (const bad of ['nope', new Types.ObjectId().toHexString()]) {
      const res = await switchTo(id, bad);
      expect([res.status, res.body.code]).toEqual([404, ErrorCode.BRANCH_NOT_FOUND]);
      expect((await as(t, alice).delete(`/api/llm/${id}/branches/${bad}`)).body.code).toBe(ErrorCode.BRANCH_NOT_FOUND);
      expect((await as(t, alice).patch(`/api/llm/${id}/branches/${bad}`, { name: 'x' })).body.code).toBe(ErrorCode.BRANCH_NOT_FOUND);
    }
    // The only branch is neither deleted nor...
    const last = await as(t, alice).delete(`/api/llm/${id}/branches/${id}`);
    expect([last.status, last.body.code]).toEqual([409, ErrorCode.BRANCH_LAST]);
    expect(await story(id)).toEqual(before);
    expect((await branches(id)).branches).toHaveLength(1);
    expect(await t.connection.db!.collection('story_branches').countDocuments({})).toBe(0);

    // ...and a branch the client did not see (another device switched) is not forked from.
    const b = ((await fork(id, { at: 4 })).body.data as BranchSwitchData).current;
    const stale = await fork(id, { at: 2, from_branch: id });
    expect([stale.status, stale.body.code]).toEqual([409, ErrorCode.BRANCH_CHANGED]);
    // The played branch is not deleted; another one is.
    const inPlay = await as(t, alice).delete(`/api/llm/${id}/branches/${b}`).set('Accept-Language', 'en');
    expect([inPlay.status, inPlay.body.code, inPlay.body.message]).toEqual([409, ErrorCode.BRANCH_IN_PLAY, 'The branch being played cannot be deleted. Switch to another branch first.']);
    // An edit of the text made for the line no longer played is refused, not written onto this one.
    const edit = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: 'Overwritten', branch_id: id });
    expect([edit.status, edit.body.code]).toEqual([409, ErrorCode.BRANCH_CHANGED]);
    // The same for one change of it (main_text_edit), though it fits the text the branch plays.
    const change = mainTextEdit(PROLOGUE.slice(0, 4), 'Over');
    const stalePart = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: change, branch_id: id });
    expect([stalePart.status, stalePart.body.code]).toEqual([409, ErrorCode.BRANCH_CHANGED]);
    // ...and one made on that line's own text, which this branch does not have: still BRANCH_CHANGED.
    const otherLine = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text_edit: mainTextEdit('Another text', 'Another'), branch_id: id });
    expect([otherLine.status, otherLine.body.code]).toEqual([409, ErrorCode.BRANCH_CHANGED]);
    expect((await story(id)).main_text).toBe(PROLOGUE.slice(0, 4));
    expect((await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: 'Mara!', branch_id: b })).status).toBe(200);

    // Rename: trimmed; an empty name shows the default one again.
    const renamed = await as(t, alice).patch(`/api/llm/${id}/branches/${id}`, { name: ' Harbour ' });
    expect((renamed.body.data as BranchesData).branches.map((x) => x.name)).toEqual(['Harbour', '']);
    expect((await as(t, alice).patch(`/api/llm/${id}/branches/${b}`, { name: 'Hills' })).status).toBe(200);
    const deleted = await as(t, alice).delete(`/api/llm/${id}/branches/${id}`);
    expect((deleted.body.data as BranchesData).branches.map((x) => [x.no, x.name, x.current])).toEqual([[2, 'Hills', true]]);
    expect((await as(t, alice).delete(`/api/llm/${id}/branches/${b}`)).body.code).toBe(ErrorCode.BRANCH_LAST);
    expect((await story(id)).main_text).toBe('Mara!');
  });

  it(`holds at most ${BRANCHES_PER_STORY_MAX} branches per story (BRANCH_LIMIT in both languages)`, async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    for (let i = 1; i < BRANCHES_PER_STORY_MAX; i++) expect((await fork(id, { at: 4 })).status).toBe(200);
    const list = await branches(id);
    expect(list.branches).toHaveLength(BRANCHES_PER_STORY_MAX);
    expect(list.branches.map((x) => x.no)).toEqual(Array.from({ length: BRANCHES_PER_STORY_MAX }, (_, i) => i + 1));
    for (const [language, words] of [['en', 'already has 50 branches'], ['zh-CN', '已有 50 条分支']] as const) {
      const res = await as(t, alice).post(`/api/llm/${id}/branches`, { at: 4, language });
      expect([res.status, res.body.code, res.body.params]).toEqual([409, ErrorCode.BRANCH_LIMIT, { max: BRANCHES_PER_STORY_MAX }]);
      expect(res.body.message).toContain(words);
    }
    expect((await branches(id)).branches).toHaveLength(BRANCHES_PER_STORY_MAX);
    // Deleting one makes room; numbers are not reused.
    expect((await as(t, alice).delete(`/api/llm/${id}/branches/${list.branches[1].id}`)).status).toBe(200);
    const again = (await fork(id, { at: 4 })).body.data as BranchSwitchData;
    expect(again.branches.at(-1)!.no).toBe(BRANCHES_PER_STORY_MAX + 1);
  });

  it('keeps one generation at a time per story, whichever branch: a change of branch waits for it, and a send waits for a change', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    const b = ((await fork(id, { at: 4 })).body.data as BranchSwitchData).current;
    await switchTo(id, id);
    stub.set({ delayMs: 150, completionTokens: 200 });
    const refusals: Promise<{ body: { code?: string } }>[] = [];
    await unthrottle(t, id);
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' }, undefined, {
      onEvent: (e, n) => {
        if (e.type !== 'delta' || n !== 2) return;
        // Started now (a supertest request starts when it is awaited).
        const now = <T,>(r: PromiseLike<T>) => Promise.resolve(r);
        refusals.push(now(switchTo(id, b)), now(fork(id, { at: 2 })), now(as(t, alice).delete(`/api/llm/${id}/branches/${b}`)));
      },
    });
    expect(textOf(res.events)).toBe(reply(1));
    expect((await Promise.all(refusals)).map((r) => r.body.code)).toEqual(Array(3).fill(ErrorCode.GENERATION_IN_PROGRESS));
    await drain();
    expect((await branches(id)).branches).toHaveLength(2);
    expect((await switchTo(id, b)).status).toBe(200);

    // While a change of branch holds the turn (here: one whose process stopped, not yet timed out),
    // sends, accepts and undos wait with BRANCH_SWITCHING; nothing moves.
    await switchTo(id, id);
    const turns = t.connection.db!.collection('play_turns');
    await turns.updateOne({ _id: new Types.ObjectId(id) }, { $set: { switchLock: 'elsewhere', lastSendAt: Date.now() + 30_000 } });
    const held = await as(t, alice).post(`/api/llm/${id}`, { content: 'Go', model_name: 'free' });
    expect([held.status, held.body.code]).toEqual([409, ErrorCode.BRANCH_SWITCHING]);
    for (const path of ['accept', 'discard']) {
      const r = await as(t, alice).post(`/api/llm/${id}/${path}`, { userContent: 'x', newContent: 'y', turnId: (await pending(id)).turnId ?? undefined });
      expect(r.body.code).toBe(ErrorCode.BRANCH_SWITCHING);
    }
    expect((await switchTo(id, b)).body.code).toBe(ErrorCode.BRANCH_SWITCHING);
    expect((await pending(id)).takes.map((k) => k.aiText)).toEqual([reply(1)]);
    // Its time passes: everything works again.
    await turns.updateOne({ _id: new Types.ObjectId(id) }, { $set: { lastSendAt: 0 } });
    expect((await switchTo(id, b)).status).toBe(200);
  });

  it('a change of branch cut short at any step leaves one whole branch played; the turn follows it and a retry completes it', async () => {
    const steps: BranchStep[] = ['held', 'parked', 'saved', 'flipped'];
    const moves = t.app.get(BranchMoves);
    const fault = vi.spyOn(moves, 'fault');
    try {
      for (const step of steps) {
        const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
        const b = ((await fork(id, { at: 4 })).body.data as BranchSwitchData).current;
        const onB = await send(id, 'On the branch');
        await switchTo(id, id);
        const onMain = await send(id, 'On the main line');
        // The process "dies" at this step: nothing after it runs, and its hold on the turn is not let go.
        const letGo = vi.spyOn(moves['parking'], 'letGo').mockImplementation(async () => false);
        fault.mockImplementation((s) => {
          if (s === step) throw new Error(`stopped at ${step}`);
        });
        expect((await switchTo(id, b)).status).toBe(500);
        fault.mockImplementation(() => undefined);
        letGo.mockRestore();
        // Either line is played whole, and the pending turn shown is that line's.
        const now = await story(id);
        const played = now.branch_id;
        expect(now.main_text).toBe(played === id ? PROLOGUE : PROLOGUE.slice(0, 4));
        expect(played).toBe(step === 'flipped' ? b : id);
        // The dead hold times out (simulated), then the pending turn follows the played line.
        await t.connection.db!.collection('play_turns').updateOne({ _id: new Types.ObjectId(id) }, { $set: { lastSendAt: 0 } });
        expect((await pending(id)).turnId).toBe(played === id ? onMain : onB);
        // A retry ends where it should, and both lines keep their turns.
        expect((await switchTo(id, b)).status).toBe(200);
        expect((await pending(id)).turnId).toBe(onB);
        expect((await switchTo(id, id)).status).toBe(200);
        expect((await pending(id)).turnId).toBe(onMain);
      }
    } finally {
      fault.mockRestore();
    }
  });

  it('concurrent changes of branch: one at a time, each whole; the others are told to try again', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    const b = ((await fork(id, { at: 4 })).body.data as BranchSwitchData).current;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([id, b, id, b, id, b].map((to) => Promise.resolve(switchTo(id, to))));
      for (const a of answers) expect(a.status === 200 || a.body.code === ErrorCode.BRANCH_SWITCHING).toBe(true);
      expect(answers.some((a) => a.status === 200)).toBe(true);
      const now = await story(id);
      expect(now.main_text).toBe(now.branch_id === id ? PROLOGUE : PROLOGUE.slice(0, 4));
      expect((await branches(id)).current).toBe(now.branch_id);
    }
    expect(await t.connection.db!.collection('story_branches').countDocuments({ storyId: id })).toBe(2);
  });

  it('answers only a signed-in user; Swagger documents the routes', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    const anon = await request(t.app.getHttpServer()).get(`/api/llm/${id}/branches`);
    expect(anon.status).toBe(401);
    const doc = await request(t.app.getHttpServer()).get('/api/docs-json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/llm/{id}/branches', '/api/llm/{id}/branches/{branchId}/play', '/api/llm/{id}/branches/{branchId}']),
    );
  });
});
