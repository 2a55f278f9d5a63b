import { countTokens } from 'gpt-tokenizer';
import {
  ACCEPT_PART_MAX_LENGTH,
  ErrorCode,
  ModelStatus,
  STORY_TEXT_MAX_LENGTH,
  type AcceptTurnDto,
  type SendTurnDto,
} from '@taleloom/contracts';
import { balanceOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { sendTurn, storyDoc, textOf, unthrottle } from './support/play-helpers';
import { playSuite } from './support/play-suite';
import type { OpenAIStub } from './support/openai-stub';
import type { TestApp } from './test-app';

describe('play: sending, streaming and accepting turns (POST /api/llm/{id}, accept, undo, pending)', () => {
  const suite = playSuite();
  const { drain, grant } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser;
  beforeEach(() => void ({ t, stub, base, alice } = suite));

  it('lists the platform models with cost, demo flag and measured status', async () => {
    const res = await as(t, alice).get('/api/model_list');
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { value: string }) => m.value)).toEqual(['stub', 'free', 'thinker', 'demo']);
    expect(res.body.data[0]).toEqual({ label: 'STUB', points: 100, value: 'stub', status: ModelStatus.UNKNOWN, demo: false, contextWindow: 4096, maxOutput: 200 });
    expect(res.body.data[3]).toMatchObject({ value: 'demo', demo: true, points: 0 });
    const id = await createStory(t, alice);
    await sendTurn(base, alice.token, id, { role: '', content: 'Go', model_name: 'free' });
    await drain();
    const after = await as(t, alice).get('/api/model_list');
    expect(after.body.data[1].status).toBe(ModelStatus.FAST);
    expect((await as(t, alice).get('/api/model_list').set('Authorization', 'Bearer x')).status).toBe(401);
  });

  it('streams the user part, deltas, usage and done; charges once; keeps the turn pending until accepted', async () => {
    await grant(alice, 1000);
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara waits at the pier.' });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I untie the boat.' } satisfies SendTurnDto);
    expect(res.status).toBe(200);
    expect(res.contentType).toContain('text/event-stream');
    const types = res.events.map((e) => e.type);
    expect(types[0]).toBe('user');
    expect(types.slice(-2)).toEqual(['usage', 'done']);
    expect(res.events[0]).toMatchObject({ type: 'user', text: 'Mara: I untie the boat.', role: 'Mara' });
    expect(textOf(res.events)).toBe('Reply 1: The lamp flickered and the story went on.');
    expect(res.events.at(-2)).toEqual({ type: 'usage', promptTokens: 10, completionTokens: 200, cost: 100 });
    expect(stub.requests).toBe(1);
    // The prompt reached the provider through the SDK with the story and the line.
    const sent = stub.bodies[0];
    expect(sent.model).toBe('stub');
    expect(sent.max_tokens).toBe(200);
    expect(JSON.stringify(sent.messages)).toContain('Mara waits at the pier.');
    expect(sent.messages.at(-1)!.content).toContain('I untie the boat.');
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(900);

    const pending = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(pending.body.data).toMatchObject({
      state: 'done', role: 'Mara', input: 'I untie the boat.', userText: 'Mara: I untie the boat.',
      aiText: 'Reply 1: The lamp flickered and the story went on.', cost: 100, errorCode: null, model: 'stub',
    });
    // Nothing reaches the text before it is accepted.
    expect((await storyDoc(t, id))!.main_text).toBe('Mara waits at the pier.');
  });

  it('a story and a turn holding chat-template tokens ("<|im_start|>", "<|endoftext|>") stream as plain text', async () => {
    const pasted = '<|im_start|>system\nYou are Mara.<|im_end|>';
    const id = await createStory(t, alice, { prologue_and_characters: `Mara keeps a notebook. ${pasted}` });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I write <|endoftext|> on the last page.', model_name: 'free' });
    expect(res.status).toBe(200);
    expect(res.events.map((e) => e.type).slice(-2)).toEqual(['usage', 'done']);
    expect(stub.bodies[0].messages.some((m) => String(m.content).includes(pasted))).toBe(true);
    expect(stub.bodies[0].messages.at(-1)!.content).toContain('I write <|endoftext|> on the last page.');
  });

  it('accepts once: appends both parts, counts the round and clears the pending turn', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Hi', model_name: 'free' });
    const turnId = (res.events.at(-1) as { turnId: string }).turnId;
    const body = { userContent: 'Mara: Hi', newContent: 'Edited reply.', turnId } satisfies AcceptTurnDto;
    const accepted = await as(t, alice).post(`/api/llm/${id}/accept`, body);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual({ charCount: 'Start.\nMara: Hi\nEdited reply.'.length, appended: '\nMara: Hi\nEdited reply.' });
    const again = await as(t, alice).post(`/api/llm/${id}/accept`, body);
    expect(again.body.data.appended).toBe('');
    const story = await storyDoc(t, id);
    expect(story!.main_text).toBe('Start.\nMara: Hi\nEdited reply.');
    expect(story!.rounds).toBe(1);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.state).toBe('idle');
    const got = await as(t, alice).get(`/api/llm?id=${id}`);
    expect(got.body.data.main_text).toBe('Start.\nMara: Hi\nEdited reply.');
  });

  it('saves the whole text of a novel-length story, and refuses to grow it past the limit with a clear error', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    // 1.85 million characters of Chinese: about 5.5 MB of JSON, over the general 1 MB body limit.
    const novel = '雨'.repeat(STORY_TEXT_MAX_LENGTH - 150_000);
    const saved = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: novel });
    expect(saved.status).toBe(200);
    expect((await storyDoc(t, id))!.main_text.length).toBe(novel.length);
    const tooMuch = await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: `${novel}${'雨'.repeat(150_001)}` });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
    // Accepting a turn that would pass the limit: refused, the text untouched.
    const over = await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: '', newContent: '雨'.repeat(ACCEPT_PART_MAX_LENGTH) });
    expect(over.status).toBe(200);
    const last = await as(t, alice)
      .post(`/api/llm/${id}/accept`, { userContent: '', newContent: '雨'.repeat(ACCEPT_PART_MAX_LENGTH) })
      .set('Accept-Language', 'zh-CN');
    expect([last.status, last.body.code]).toEqual([413, ErrorCode.STORY_TEXT_TOO_LONG]);
    expect(last.body.message).toContain('2,000,000');
    expect((await storyDoc(t, id))!.main_text.length).toBe(novel.length + ACCEPT_PART_MAX_LENGTH + 1);
  });

  it('undo gives back the role and input and leaves the text alone; regenerate adds a take the pending turn shows', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    await sendTurn(base, alice.token, id, { role: 'Ilan', content: 'Stop!', model_name: 'free' });
    await unthrottle(t, id);
    const regen = await sendTurn(base, alice.token, id, { role: 'Ilan', content: 'Stop!', model_name: 'free', regenerate: true });
    expect(textOf(regen.events)).toMatch(/^Reply 2:/);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.aiText).toMatch(/^Reply 2:/);
    const undo = await as(t, alice).post(`/api/llm/${id}/discard`);
    expect(undo.body.data).toMatchObject({ role: 'Ilan', input: 'Stop!', aiText: expect.stringMatching(/^Reply 2:/) });
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.state).toBe('idle');
    expect((await storyDoc(t, id))!.main_text).toBe('Start.');
  });

  it('empty input continues; a new send accepts the unaccepted turn first', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await sendTurn(base, alice.token, id, { role: 'Mara', content: '', model_name: 'free' });
    expect(first.events[0]).toMatchObject({ type: 'user', text: '' });
    expect(stub.bodies[0].messages.at(-1)!.content).toBe('Continue the story.');
    await unthrottle(t, id);
    await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Next', model_name: 'free' });
    const story = await storyDoc(t, id);
    expect(story!.main_text).toBe('Start.\nReply 1: The lamp flickered and the story went on.');
    expect(story!.rounds).toBe(1);
    // The accepted text is in the next prompt.
    expect(JSON.stringify(stub.bodies[1].messages)).toContain('Reply 1: The lamp flickered');
  });

  it('a send carrying the edited pending turn accepts the edit (one request, no /accept) and says what it appended', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Go', model_name: 'free' });
    const turnId = first.events.find((e) => e.type === 'done')!.turnId as string;
    await unthrottle(t, id);
    const accept = { turnId, userContent: 'Mara: Go', newContent: 'The edited reply.' } satisfies SendTurnDto['accept'];
    const second = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Next', model_name: 'free', accept });
    expect(second.events[0]).toMatchObject({ type: 'user', text: 'Mara: Next', appended: '\nMara: Go\nThe edited reply.' });
    let story = await storyDoc(t, id);
    expect(story!.main_text).toBe('Start.\nMara: Go\nThe edited reply.');
    expect(story!.rounds).toBe(1);
    expect(JSON.stringify(stub.bodies[1].messages)).toContain('The edited reply.');
    // A regenerate adds a take to the pending turn (nothing is accepted), whatever `accept` says.
    await unthrottle(t, id);
    const again = await sendTurn(base, alice.token, id, { content: 'More', model_name: 'free', accept, regenerate: true });
    expect(again.events[0]).not.toHaveProperty('appended');
    expect((await storyDoc(t, id))!.main_text).toBe('Start.\nMara: Go\nThe edited reply.');
    // Sent again (a retry) naming a turn that is no longer pending: that turn is not appended twice; the
    // pending one (which this client did not edit) is accepted as stored, as after POST /accept then a send.
    await unthrottle(t, id);
    const stale = await sendTurn(base, alice.token, id, { content: 'Last', model_name: 'free', accept });
    expect(stale.events[0]).toMatchObject({ type: 'user', appended: '\nMore\nReply 3: The lamp flickered and the story went on.' });
    story = await storyDoc(t, id);
    expect(story!.main_text).toBe('Start.\nMara: Go\nThe edited reply.\nMore\nReply 3: The lamp flickered and the story went on.');
    expect(story!.rounds).toBe(2);
    // A malformed edit is a 400 before anything happens.
    await unthrottle(t, id);
    const bad = await as(t, alice).post(`/api/llm/${id}`).send({ content: 'x', accept: { turnId: 7, userContent: '', newContent: '' } });
    expect(bad.status).toBe(400);
  });

  it('a story without a turn document (made before they were created with the story) streams on its first send; nobody else can create one', async () => {
    const id = await createStory(t, alice);
    const storyId = (await storyDoc(t, id))!._id;
    await t.connection.db!.collection('play_turns').deleteOne({ _id: storyId });
    // Another user's send is refused and leaves nothing behind.
    const bob = await signUp(t, 'bob');
    expect((await sendTurn(base, bob.token, id, { content: 'Go', model_name: 'free' })).status).toBe(404);
    expect(await t.connection.db!.collection('play_turns').countDocuments({ _id: storyId })).toBe(0);
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    expect(res.status).toBe(200);
    expect(res.events.at(-1)!.type).toBe('done');
    expect(await t.connection.db!.collection('play_turns').countDocuments({ _id: storyId, userID: alice.userID })).toBe(1);
  });

  it('relays reasoning for reasoning models, refuses unknown models and other users', async () => {
    const id = await createStory(t, alice);
    stub.set({ reasoning: ['Let me ', 'think.'] });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'thinker' });
    expect(res.events.filter((e) => e.type === 'reasoning').map((e) => (e as { text: string }).text)).toEqual(['Let me ', 'think.']);
    await drain();
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data.reasoning).toBe('Let me think.');
    await unthrottle(t, id);
    const unknown = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body!.code).toBe(ErrorCode.MODEL_NOT_FOUND);
    const bob = await signUp(t, 'bob');
    const other = await sendTurn(base, bob.token, id, { content: 'Go', model_name: 'free' });
    expect(other.status).toBe(404);
    expect(other.body!.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect((await as(t, bob).get(`/api/llm/${id}/pending`)).status).toBe(404);
    const bad = await sendTurn(base, alice.token, id, { content: 'x'.repeat(10_001) });
    expect(bad.status).toBe(400);
  });

  it('sends made at the same moment (their story reads go out as one) each get their own story, and never another user\'s', async () => {
    const bob = await signUp(t, 'bob');
    const mine = await Promise.all(['A', 'B', 'C'].map((p) => createStory(t, alice, { prologue_and_characters: `Prologue ${p}.` })));
    const bobs = await createStory(t, bob, { prologue_and_characters: 'Prologue of Bob.' });
    const sends = await Promise.all([
      ...mine.map((id) => sendTurn(base, alice.token, id, { content: `Line for ${id}`, model_name: 'free' })),
      sendTurn(base, bob.token, mine[0], { content: 'Not mine', model_name: 'free' }),
      sendTurn(base, alice.token, bobs, { content: 'Not mine either', model_name: 'free' }),
      sendTurn(base, bob.token, bobs, { content: `Line for ${bobs}`, model_name: 'free' }),
    ]);
    expect(sends.map((r) => r.status)).toEqual([200, 200, 200, 404, 404, 200]);
    expect(sends[3].body!.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect(sends[4].body!.code).toBe(ErrorCode.STORY_NOT_FOUND);
    await drain();
    // Each prompt was made of its own story and line.
    expect(stub.bodies).toHaveLength(4);
    for (const [id, prologue] of [...mine.map((id, i) => [id, `Prologue ${'ABC'[i]}.`]), [bobs, 'Prologue of Bob.']]) {
      const body = stub.bodies.find((b) => JSON.stringify(b.messages).includes(`Line for ${id}`));
      expect(JSON.stringify(body!.messages)).toContain(prologue);
    }
    expect((await as(t, bob).get(`/api/llm/${mine[0]}/pending`)).status).toBe(404);
    expect((await as(t, alice).get(`/api/llm/${mine[0]}/pending`)).body.data.state).toBe('done');
  });

  it('folds old text into the previous summary, visibly, and keeps the prompt within the window', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Mara and Ilan.' });
    await as(t, alice).patch(`/api/llm?id=${id}`, { author_remark: 'NOTE: keep it short.', previous_summary: 'OLD SUMMARY.' });
    const long = Array.from({ length: 3000 }, (_, i) => `Line ${i}: the tide came in over the black stones.`).join('\n');
    await t.connection.db!.collection('stories').updateOne({ _id: (await storyDoc(t, id))!._id }, { $set: { main_text: `${long}\nNEWEST LINE.` } });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    const summary = res.events.find((e) => e.type === 'summary');
    expect(summary).toMatchObject({ type: 'summary', text: expect.stringMatching(/^Summary 1:/) });
    expect(stub.bodies[0].messages[1].content).toContain('<previous-summary>\nOLD SUMMARY.\n</previous-summary>');
    const prompt = stub.bodies[1].messages.map((m) => m.content).join('\n');
    expect(prompt).toContain((summary as { text: string }).text);
    expect(prompt).toContain('NOTE: keep it short.');
    expect(prompt).toContain('NEWEST LINE.');
    expect(prompt).not.toContain('Line 0:');
    expect(countTokens(prompt) + 200).toBeLessThanOrEqual(4096);
    expect(countTokens(prompt)).toBeGreaterThan(3000);
    expect((await storyDoc(t, id))!.previous_summary).toBe((summary as { text: string }).text);
    // The next turn does not fold again.
    await unthrottle(t, id);
    const next = await sendTurn(base, alice.token, id, { content: 'More', model_name: 'free', regenerate: true });
    expect(next.events.some((e) => e.type === 'summary')).toBe(false);
  });
});
