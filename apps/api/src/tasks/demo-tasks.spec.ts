import { readGroups, readJudgements, quoteIsInText } from './task-output';
import { judgementMessages, suggestionMessages } from './task-prompts';
import { ChatProvider } from '../models/chat-provider';
import { startDemoModelServer, type DemoModelServer } from '../models/demo-model-server';
import { DEMO_MODEL } from '../config/platform-models';

// The demo model answers the real task prompts over HTTP, so a fresh install can suggest and score goals.
describe('demo model: task requests', () => {
  let server: DemoModelServer;
  const provider = new ChatProvider();
  const ask = (messages: ReturnType<typeof suggestionMessages>) =>
    provider.complete({ model: { ...DEMO_MODEL, baseURL: server.baseURL }, apiKey: '', messages, maxTokens: 1200, idleTimeoutMs: 5000 });
  const story = (main_text: string) => ({ prologue_and_characters: main_text, goal: '', previous_summary: '', main_text });

  beforeAll(async () => {
    server = await startDemoModelServer(0);
  });
  afterAll(() => server.close());

  it('suggests three readable groups in the story\'s language', async () => {
    const en = readGroups(await ask(suggestionMessages(story('Mara waits at the pier.'), [], 3, 'en', 4000)), 3);
    expect(en).toHaveLength(3);
    expect(en[0].targets[0].title).toMatch(/^Find /);
    const zh = readGroups(await ask(suggestionMessages(story('玛拉在码头等船。'), [], 3, 'zh', 4000)), 3);
    expect(zh[0].targets[0].title).toMatch(/^找到/);
  });

  it('completes a goal the story names, quoting the sentence', async () => {
    const text = 'Mara waits. She noticed a brass key half hidden in the shadows. Nothing else happened.';
    const answer = await ask(judgementMessages(story(text), [{ title: 'Find a brass key', type: 'reality' }, { title: 'Get to the lighthouse', type: 'reality' }], 'en', 4000));
    const verdicts = readJudgements(answer, [1, 2]);
    expect(verdicts.get(1)).toMatchObject({ completed: true, evidence: 'She noticed a brass key half hidden in the shadows.' });
    expect(quoteIsInText(verdicts.get(1)!.evidence, text)).toBe(true);
    expect(verdicts.get(2)?.completed).toBe(false);
  });
});
