import type { PromptContextData } from '@taleloom/contracts';
import { Types } from 'mongoose';
import { as, createStory, type TestUser } from './story-factories';
import { sendTurn, unthrottle } from './support/play-helpers';
import { entry, loreSuite } from './support/lore-suite';
import type { OpenAIStub } from './support/openai-stub';
import type { TestApp } from './test-app';

describe('lore: the context inspector (GET /api/llm/:id/context)', () => {
  const suite = loreSuite();
  const { drain, add } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser;
  beforeEach(() => void ({ t, stub, base, alice } = suite));

  describe('the context inspector', () => {
    it('shows each part of the prompt sent, the lore that fired and why, adding up to what the stub received', async () => {
      const id = await createStory(t, alice, { prologue_and_characters: 'Mira, a swordswoman. 米拉是剑士。' });
      await as(t, alice).patch(`/api/llm?id=${id}`, { author_remark: 'Keep it short; mention the harbour.', previous_summary: 'They left the city.' });
      await add(alice, id, entry('Mira', ['Mira'], 'Mira carries a green blade.', { order: 20 }));
      await add(alice, id, entry('龙城', ['龙城'], '龙城在北方，城门朝南。', { order: 10 }));
      await add(alice, id, entry('World', [], 'Magic is rare and feared.', { constant: true, order: 500 }));
      await add(alice, id, entry('Cat', ['cat'], 'Never fires on concatenate.'));
      await add(alice, id, entry('Harbour', ['harbour'], 'The harbour has a lighthouse.', { order: 30 }));
      await add(alice, id, entry('Big', ['lighthouse'], 'Lighthouse lore. '.repeat(400), { order: 40 }));
      await as(t, alice).put(`/api/lore/${id}/settings`, { token_budget: 400 });

      expect((await as(t, alice).get(`/api/llm/${id}/context`)).body.data).toBeNull();
      const sent = await sendTurn(base, alice.token, id, { role: 'Mira', content: 'I walk to 龙城 and concatenate my notes.' });
      expect(sent.events.at(-1)?.type).toBe('done');
      await drain();
      const res = await as(t, alice).get(`/api/llm/${id}/context`);
      expect(res.status).toBe(200);
      const context: PromptContextData = res.body.data;
      const received = stub.bodies.at(-1)!;

      // The parts, joined, are exactly what the model was sent, message by message.
      expect(context.messages.map((m) => m.role)).toEqual(received.messages.map((m) => m.role));
      context.messages.forEach((m, i) => expect(m.parts.map((p) => p.text).join('')).toBe(received.messages[i].content));
      expect(context.promptTokens).toBe(context.messages.flatMap((m) => m.parts).reduce((n, p) => n + p.tokens, context.overheadTokens));
      expect(context).toMatchObject({ model: 'stub', contextWindow: 4096, maxOutput: 200, turnId: sent.events.find((e) => e.type === 'done')!.turnId });
      expect(context.messages.flatMap((m) => m.parts.map((p) => p.kind))).toEqual([
        'system', 'play_mode', 'prologue', 'summary', 'lore', 'lore', 'lore', 'lore', 'text', 'author_note', 'user_prompt', 'line',
      ]);

      // Always-on first, then by order; each with the keyword that fired it and where it was found.
      const lore = context.messages[1].parts.filter((p) => p.kind === 'lore').map((p) => p.lore!);
      expect(lore.map((l) => [l.title, l.keyword, l.source])).toEqual([
        ['World', '', null],
        ['龙城', '龙城', 'line'],
        ['Mira', 'Mira', 'text'],
        ['Harbour', 'harbour', 'author_note'],
      ]);
      // The harbour's lighthouse fires Big by recursion, which does not fit the budget.
      expect(context.lore.leftOut).toEqual([expect.objectContaining({ title: 'Big', keyword: 'lighthouse', source: 'entry', viaTitle: 'Harbour', depth: 1 })]);
      expect(context.lore.budget).toBe(400);
      expect(context.lore.used).toBeLessThanOrEqual(400);
      const text = context.messages[1].parts.find((p) => p.kind === 'text')!;
      expect(text).toMatchObject({ available: true, from: 0 });
      expect(received.messages[1].content).not.toContain('Never fires');

      // Accepting the turn keeps the inspector showing it (the window is still there).
      await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Mira: I walk.', newContent: 'She walks.' });
      const after = (await as(t, alice).get(`/api/llm/${id}/context`)).body.data as PromptContextData;
      expect(after.messages[1].parts.find((p) => p.kind === 'text')).toMatchObject({ available: true, text: text.text });
      // An edit of the text since: the window can no longer be shown, its tokens still can.
      await unthrottle(t, id);
      await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: 'Rewritten.' });
      const edited = (await as(t, alice).get(`/api/llm/${id}/context`)).body.data as PromptContextData;
      expect(edited.messages[1].parts.find((p) => p.kind === 'text')).toMatchObject({ available: false, tokens: text.tokens });
    });

    it('shows the prompt of the line the story plays: a branch has its own, and switching back shows the other line\'s again', async () => {
      const id = await createStory(t, alice, { prologue_and_characters: 'Mira waits at the pier.' });
      await add(alice, id, entry('Mira', ['Mira'], 'Mira carries a green blade.'));
      const turnOf = (events: { type: string; turnId?: string }[]) => events.find((e) => e.type === 'done')!.turnId;
      const context = async () => (await as(t, alice).get(`/api/llm/${id}/context`)).body.data as PromptContextData | null;

      const onMain = await sendTurn(base, alice.token, id, { content: 'Mira looks at the sea.' });
      await drain();
      await as(t, alice).post(`/api/llm/${id}/accept`, {});
      expect((await context())!.turnId).toBe(turnOf(onMain.events));

      const forked = await as(t, alice).post(`/api/llm/${id}/branches`, { at: 5 });
      expect(forked.status).toBe(200);
      const branch = forked.body.data.current as string;
      // Nothing was sent on the new line yet.
      expect(await context()).toBeNull();
      await unthrottle(t, id);
      const onBranch = await sendTurn(base, alice.token, id, { content: 'A storm, and Mira runs.' });
      await drain();
      expect((await context())!.turnId).toBe(turnOf(onBranch.events));
      expect(firedTitles(await context())).toEqual(['Mira']);

      await unthrottle(t, id);
      expect((await as(t, alice).post(`/api/llm/${id}/branches/${id}/play`)).status).toBe(200);
      const back = await context();
      expect(back!.turnId).toBe(turnOf(onMain.events));
      expect(back!.messages[1].parts.find((p) => p.kind === 'text')).toMatchObject({ available: true });
      await unthrottle(t, id);
      expect((await as(t, alice).post(`/api/llm/${id}/branches/${branch}/play`)).status).toBe(200);
      expect((await context())!.turnId).toBe(turnOf(onBranch.events));

      // A deleted branch's prompt goes with it.
      const contexts = t.connection.db!.collection('turn_contexts');
      expect(await contexts.countDocuments({ _id: new Types.ObjectId(branch) })).toBe(1);
      await unthrottle(t, id);
      expect((await as(t, alice).post(`/api/llm/${id}/branches/${id}/play`)).status).toBe(200);
      expect((await as(t, alice).delete(`/api/llm/${id}/branches/${branch}`)).status).toBe(200);
      expect(await contexts.countDocuments({ _id: new Types.ObjectId(branch) })).toBe(0);
      expect((await context())!.turnId).toBe(turnOf(onMain.events));
      // The original line's too (its prompt is kept under the story's id).
      expect((await as(t, alice).post(`/api/llm/${id}/branches`, { at: 5 })).status).toBe(200);
      expect((await as(t, alice).delete(`/api/llm/${id}/branches/${id}`)).status).toBe(200);
      expect(await contexts.countDocuments({ _id: new Types.ObjectId(id) })).toBe(0);
    });
  });
});

const firedTitles = (context: PromptContextData | null): string[] =>
  (context?.messages ?? []).flatMap((m) => m.parts.flatMap((p) => (p.kind === 'lore' && p.lore ? [p.lore.title] : [])));
