import {
  mainTextEdit,
  BRANCHES_PER_STORY_MAX,
  ErrorCode,
  type AddTaskGroupDto,
  type BranchesData,
  type BranchSwitchData,
  type CreateBranchDto,
  type PendingTurnData,
  type StoryData,
  type StoryPicture,
  type StreamEvent,
  type TaskInfo,
} from '@taleloom/contracts';
import { Types } from 'mongoose';
import request from 'supertest';
import { BranchMoves, type BranchStep } from '../src/branches/branch-moves';
import { PictureRunner } from '../src/pictures/picture.runner';
import { TaskRunner } from '../src/tasks/task.runner';
import { TurnRunner } from '../src/play/turn.runner';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { listenOnLoopback, postEvents, sendTurn, storyDoc, stubModel, textOf, unthrottle } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

const PROLOGUE = 'Mara waits at the pier.';
const reply = (n: number) => `Reply ${n}: The lamp flickered and the story went on.`;

describe('branches: fork a story at any point, switch, rename, delete (/api/llm/{id}/branches)', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  const drain = () => Promise.all([t.app.get(TurnRunner).drain(), t.app.get(PictureRunner).drain(), t.app.get(TaskRunner).drain()]);

  const story = async (id: string, user = alice): Promise<StoryData> => (await as(t, user).get(`/api/llm?id=${id}`)).body.data;
  const branches = async (id: string, user = alice): Promise<BranchesData> => (await as(t, user).get(`/api/llm/${id}/branches`)).body.data;
  const pictures = async (id: string): Promise<StoryPicture[]> => (await as(t, alice).get(`/api/llm/${id}/pictures`)).body.data.pictures;
  const tasks = async (id: string): Promise<TaskInfo> => (await as(t, alice).get(`/api/tasks?story_id=${id}`)).body.data;
  const pending = async (id: string): Promise<PendingTurnData> => (await as(t, alice).get(`/api/llm/${id}/pending`)).body.data;
  const fork = (id: string, body: CreateBranchDto, user = alice) => as(t, user).post(`/api/llm/${id}/branches`, body);
  const switchTo = (id: string, branch: string, user = alice) => as(t, user).post(`/api/llm/${id}/branches/${branch}/play`);
  // Accepts a passage (no generation): what a turn adds to the text; with the camera on it gets a picture.
  const accept = async (id: string, userContent: string, newContent: string) => {
    const res = await as(t, alice).post(`/api/llm/${id}/accept`, { userContent, newContent });
    expect(res.status).toBe(200);
    return res.body.data as { appended: string };
  };
  // Sends a line on the free model and answers the turn id (the turn stays pending).
  const send = async (id: string, content: string, regenerate = false) => {
    await unthrottle(t, id);
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content, model_name: 'free', regenerate });
    expect(res.events.at(-1)?.type).toBe('done');
    return (res.events.at(-1) as { turnId: string }).turnId;
  };
  const ofType = <K extends StreamEvent['type']>(events: StreamEvent[], type: K) =>
    events.filter((e): e is Extract<StreamEvent, { type: K }> => e.type === type);

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([stubModel(stub.baseURL, 'free', { points: 0 })]),
      DEMO_MODEL: 'off',
      PROVIDER_TIMEOUT_SECONDS: '5',
      // The offline demo generator draws the pictures (its prompt is written by the story's model, the stub).
      IMAGES_PROVIDER: 'demo',
    });
    base = await listenOnLoopback(t);
  });
  beforeEach(async () => {
    await drain();
    await t.clean();
    stub.reset();
    stub.set({ completionTokens: 200 });
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await stub.close();
  });

  it('branches from an early passage: the old line stays intact; switching restores the text, pictures and tasks of each line', async () => {
    const id = await createStory(t, alice, { name: 'Pier', prologue_and_characters: PROLOGUE });
    await accept(id, 'Mara: I look around.', 'The ferry is late.');
    const forkAt = (await story(id)).main_text.length;
    await accept(id, 'Mara: I find the lighthouse key under a loose stone.', 'It is cold in her hand.');
    const mainText = (await story(id)).main_text;
    await drain();
    const mainPictures = await pictures(id);
    expect(mainPictures.map((p) => p.status)).toEqual(['ready', 'ready']);
    // A goal of the main line, completed by its second passage (the stub quotes the line naming it).
    const suggested = await postEvents(base, alice.token, `/api/tasks/${id}/create`, {});
    const batch = ofType(suggested.events, 'task_suggestions')[0].suggestions.batch;
    expect((await as(t, alice).post(`/api/tasks/${id}/add_new`, { batch, index: 0 } satisfies AddTaskGroupDto)).status).toBe(200);
    const scored = await postEvents(base, alice.token, `/api/tasks/${id}/0/score`, {});
    expect(ofType(scored.events, 'task_scored')).toHaveLength(1);
    await drain();
    const mainTasks = await tasks(id);
    expect(mainTasks.tasks_list[0].targets[0]).toMatchObject({ completed: true, evidence: 'Mara: I find the lighthouse key under a loose stone.' });

    // A story that never branched has one line: its original one, named by the story's id.
    expect(await branches(id)).toEqual({
      branches: [{ id, no: 1, name: '', current: true, forkedFrom: null, length: [...mainText].length, lastPlayedAt: null, createdAt: expect.any(Number) }],
      current: id,
      max: BRANCHES_PER_STORY_MAX,
    });

    // Branch from here (the end of the first passage): the new line is played at once.
    const forked = await fork(id, { at: forkAt, from_branch: id, name: '  The quiet road ' });
    expect(forked.status).toBe(200);
    const data = forked.body.data as BranchSwitchData;
    const b = data.current;
    expect(b).not.toBe(id);
    expect(data.story).toMatchObject({ id, branch_id: b, main_text: mainText.slice(0, forkAt) });
    expect(data.branches).toEqual([
      { id, no: 1, name: '', current: false, forkedFrom: null, length: [...mainText].length, lastPlayedAt: expect.any(Number), createdAt: expect.any(Number) },
      {
        id: b, no: 2, name: 'The quiet road', current: true, length: forkAt, lastPlayedAt: null, createdAt: expect.any(Number),
        forkedFrom: { parentId: id, parentNo: 1, parentName: '', at: forkAt, excerpt: mainText.slice(0, forkAt).slice(-80) },
      },
    ]);
    // Only the picture of the shared passage; the goal's proof lies beyond the fork point, so it is open again here.
    expect((await pictures(id)).map((p) => p.id)).toEqual([mainPictures[0].id]);
    const branchTasks = await tasks(id);
    expect(branchTasks.tasks_list[0].targets[0]).toMatchObject({ completed: false, evidence: '' });
    expect(branchTasks.tasks_list[0].score).toBe(0);

    // Play the branch: a turn, accepted (its own picture), and its goals edited.
    await send(id, 'I walk inland.');
    const appended = (await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Mara: I walk inland.', newContent: 'The road was quiet.' })).body.data.appended;
    const branchText = mainText.slice(0, forkAt) + appended;
    expect((await story(id)).main_text).toBe(branchText);
    await drain();
    const branchPictures = await pictures(id);
    expect(branchPictures).toHaveLength(2);
    expect((await as(t, alice).put(`/api/tasks/${id}/${branchTasks.tasks_list[0].tasks_id}`, { series_name: 'Inland goals' })).status).toBe(200);

    // Back to the original line: exactly as it was left.
    const back = await switchTo(id, id);
    expect(back.status).toBe(200);
    expect((back.body.data as BranchSwitchData).story).toMatchObject({ branch_id: id, main_text: mainText });
    expect(await story(id)).toMatchObject({ branch_id: id, main_text: mainText });
    expect(await pictures(id)).toEqual(mainPictures);
    expect(await tasks(id)).toMatchObject({ tasks_list: mainTasks.tasks_list, total_score: mainTasks.total_score });
    expect((await storyDoc(t, id))!.lastLine).toBe('It is cold in her hand.');
    // The branch's own picture is still the owner's to read (its branch references it), and nobody else's.
    const own = branchPictures.find((p) => p.id !== mainPictures[0].id)!;
    expect((await as(t, alice).get(`/api/images/${own.id}`)).status).toBe(200);
    expect((await as(t, bob).get(`/api/images/${own.id}`)).status).toBe(404);

    // And to the branch again: its text, pictures and edited goals.
    await switchTo(id, b);
    expect((await story(id)).main_text).toBe(branchText);
    expect((await pictures(id)).map((p) => p.id)).toEqual(branchPictures.map((p) => p.id));
    expect((await tasks(id)).tasks_list[0].series_name).toBe('Inland goals');
    const list = await branches(id);
    expect(list.branches.map((x) => [x.no, x.current, x.length])).toEqual([
      [1, false, [...mainText].length],
      [2, true, [...branchText].length],
    ]);
  });

  it('the pending turn and its takes stay with their branch', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: PROLOGUE });
    const first = await send(id, 'Go');
    const second = await send(id, 'Go', true);
    const b = ((await fork(id, { at: PROLOGUE.length })).body.data as BranchSwitchData).current;
    // The new line has nothing pending; the original keeps its two takes.
    expect(await pending(id)).toMatchObject({ state: 'idle', takes: [] });
    const onBranch = await send(id, 'Elsewhere');
    expect((await pending(id)).takes.map((k) => k.turnId)).toEqual([onBranch]);
    await switchTo(id, id);
    const back = await pending(id);
    expect(back).toMatchObject({ state: 'done', turnId: second, input: 'Go' });
    expect(back.takes.map((k) => [k.turnId, k.aiText])).toEqual([
      [first, reply(1)],
      [second, reply(2)],
    ]);
    // Accepting the first take here appends it to this line only.
    const accepted = await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Mara: Go', newContent: reply(1), turnId: first });
    expect(accepted.body.data.appended).toBe(`\nMara: Go\n${reply(1)}`);
    await switchTo(id, b);
    expect((await story(id)).main_text).toBe(PROLOGUE);
    expect((await pending(id)).takes.map((k) => k.turnId)).toEqual([onBranch]);
    // A send on this line goes on from its own pending turn.
    await send(id, 'On');
    expect((await story(id)).main_text).toBe(`${PROLOGUE}\nMara: Elsewhere\n${reply(3)}`);
  });

  it('a summary folded on one line is not shown on another unless the text it covers is shared', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara and Ilan.' });
    const long = Array.from({ length: 3000 }, (_, i) => `Line ${i}: the tide came in over the black stones.`).join('\n');
    expect((await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: `${long}\nNEWEST LINE.` })).status).toBe(200);
    await unthrottle(t, id);
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    const summary = ofType(res.events, 'summary')[0].text;
    const covered = (await storyDoc(t, id))!.summarized_chars as number;
    expect(covered).toBeGreaterThan(1000);
    // Forked before the end of what the summary covers: the new line starts with no summary.
    const early = (await fork(id, { at: long.indexOf('\nLine 10:') })).body.data as BranchSwitchData;
    expect(early.story.previous_summary).toBe('');
    // Its first send folds its own text (it has no summary of the other line's).
    await unthrottle(t, id);
    const own = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    expect(ofType(own.events, 'summary')).toHaveLength(0);
    expect(JSON.stringify(stub.bodies.at(-1)!.messages)).not.toContain(summary);
    // Back on the original line, its summary is there; a line forked after what it covers keeps it.
    await switchTo(id, id);
    expect((await story(id)).previous_summary).toBe(summary);
    const late = (await fork(id, { at: covered + 10 })).body.data as BranchSwitchData;
    expect(late.story.previous_summary).toBe(summary);
    expect((await storyDoc(t, id))!.summarized_chars).toBe(covered);
  });

  it('save slots, publishing and clones take the branch being played; a clone starts with the published branch only', async () => {
    const id = await createStory(t, alice, { name: 'Two roads', prologue_and_characters: PROLOGUE });
    await accept(id, 'Mara: I take the ferry.', 'The sea was grey.');
    const mainText = (await story(id)).main_text;
    const b = ((await fork(id, { at: PROLOGUE.length })).body.data as BranchSwitchData).current;
    await accept(id, 'Mara: I take the road.', 'The hills were green.');
    const branchText = (await story(id)).main_text;

    // A save slot holds the played branch.
    const saved = await as(t, alice).post('/api/archive/save', { story_id: id, archive_index: 1 });
    expect(saved.body.data).toMatchObject({ story_ending: 'The hills were green.', current_word_count: [...branchText].length });
    // Publishing publishes it; others read and clone that version.
    expect((await as(t, alice).post(`/api/user/public/${id}`)).status).toBe(200);
    await switchTo(id, id);
    expect((await story(id)).main_text).toBe(mainText);
    expect((await story(id, bob))).toMatchObject({ isOwner: false, main_text: branchText, branch_id: id });
    const cloned = await as(t, bob).post('/api/user/clone-public-story', { userID: alice.userID, storyID: id });
    const clone = cloned.body.data.id as string;
    expect((await story(clone, bob)).main_text).toBe(branchText);
    const cloneBranches = await branches(clone, bob);
    expect(cloneBranches.branches.map((x) => [x.id, x.no, x.current, x.length])).toEqual([[clone, 1, true, [...branchText].length]]);
    // Nobody reaches another's branches, even of a public story.
    expect((await as(t, bob).get(`/api/llm/${id}/branches`)).body.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect((await switchTo(id, b, bob)).body.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect((await switchTo(clone, b, bob)).body.code).toBe(ErrorCode.BRANCH_NOT_FOUND);

    // The clone of the original line (the owner's own clone, played on from a restore point) is the line played.
    const own = (await as(t, alice).post(`/api/llm/${id}/clone`)).body.data.id as string;
    expect((await story(own)).main_text).toBe(mainText);
    // Loading the slot puts what it saved into the branch being played; the branch it was saved from is untouched.
    const slot = saved.body.data._id as string;
    expect((await as(t, alice).post('/api/archive/load', { archive_id: slot })).status).toBe(200);
    expect((await story(id)).main_text).toBe(branchText);
    await switchTo(id, b);
    expect((await story(id)).main_text).toBe(branchText);
    await switchTo(id, id);
    expect((await story(id)).main_text).toBe(branchText);
  });

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
