import { BRANCHES_PER_STORY_MAX, ErrorCode, type AddTaskGroupDto, type BranchSwitchData } from '@taleloom/contracts';
import { as, createStory, type TestUser } from './story-factories';
import type { OpenAIStub } from './support/openai-stub';
import { ofType, postEvents, sendTurn, storyDoc, unthrottle } from './support/play-helpers';
import type { TestApp } from './test-app';
import { branchesSuite, PROLOGUE, reply } from './support/branches-suite';

describe('branches: what each line of a story keeps (text, pictures, tasks, pending turn, summary, saves)', () => {
  const suite = branchesSuite();
  const { drain, story, branches, pictures, tasks, pending, fork, switchTo, accept, send } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser, bob: TestUser;
  beforeEach(() => void ({ t, stub, base, alice, bob } = suite));

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
});
