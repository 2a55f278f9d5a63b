import { countTokens } from 'gpt-tokenizer';
import { storyLanguage } from '../../common/story-language';
import { assemblePrompt, formatUserPart, resolveUserMacro } from './prompt-builder';
import type { PromptStory } from './prompt-types';
import { foldMessages } from './summary-prompt';
import { TokenCounter } from '../../generation/token-counter';
import { DEFAULT_LORE_SETTINGS, type LoreEntry } from '@taleloom/contracts';
import { compileLore } from '../../lore/lore-activation';

const baseStory: PromptStory = {
  prologue_and_characters: 'Mara, a smuggler with a debt. Ilan, the harbour master who wants her gone.',
  hidden_settings: 'Ilan is her brother',
  goal: 'Pay the debt before the storm',
  author_remark: 'Keep it tense and short.',
  previous_summary: 'Mara stole the ledger from the customs house.',
  main_text: 'Mara stood on the pier.',
  play_mode: 'fly_free',
  settings_system_prompt_switch: 'default',
  settings_system_prompt_text: '',
  settings_user_prompt_switch: 'default',
  settings_user_prompt_text: '',
};
const budget = { contextWindow: 8192, maxOutput: 512 };
const joined = (p: ReturnType<typeof assemblePrompt>) => p.messages.map((m) => m.content).join('\n');

function novel(chars: number): string {
  const sentences = [
    'The tide came in slowly over the black stones of the harbour.',
    'Somewhere a bell rang twice and then fell silent.',
    'Mara counted the coins again, though she knew the sum by heart.',
    'Ilan watched from the customs house, his lamp burning late.',
    'Rain moved across the bay in long grey curtains.',
  ];
  const parts: string[] = [];
  let n = 0;
  let i = 0;
  while (n < chars) {
    const s = `${sentences[i % sentences.length]} (${i})${i % 6 === 5 ? '\n\n' : ' '}`;
    parts.push(s);
    n += s.length;
    i++;
  }
  return parts.join('').slice(0, chars);
}

describe('prompt assembly', () => {
  it('puts every part in its place, stable parts first', () => {
    const p = assemblePrompt(baseStory, { role: 'Mara', content: 'I untie the boat.' }, budget, 0, new TokenCounter());
    expect(p.messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(p.messages[0].content).toContain('co-author of an interactive story');
    expect(p.messages[0].content).toContain('Play mode: free');
    expect(p.messages[0].content).not.toContain('Pay the debt');
    expect(p.messages[1].content).toMatch(/Prologue and characters[\s\S]*Ilan is her brother[\s\S]*stole the ledger[\s\S]*Mara stood on the pier\.$/);
    expect(p.messages[2].content).toMatch(/Keep it tense and short\.[\s\S]*Continue the story\.[\s\S]*as Mara:\nI untie the boat\.$/);
    expect(p.textStart).toBe(0);
    expect(p.fold).toBeNull();
    expect(Math.abs(p.promptTokens - p.messages.reduce((n, m) => n + countTokens(m.content) + 4, 0))).toBeLessThan(12);
  });

  it('uses custom prompts, the goal in task modes, and the narrator for an empty role', () => {
    const story = {
      ...baseStory,
      play_mode: 'tasks_master' as const,
      settings_system_prompt_switch: 'custom' as const,
      settings_system_prompt_text: 'SYSTEM-X',
      settings_user_prompt_switch: 'custom' as const,
      settings_user_prompt_text: 'USER-Y',
    };
    const p = assemblePrompt(story, { role: '', content: 'A storm rises.' }, budget, 0, new TokenCounter());
    expect(p.messages[0].content).toMatch(/^SYSTEM-X[\s\S]*game master[\s\S]*Goal: Pay the debt/);
    expect(p.messages[2].content).toContain('USER-Y');
    expect(p.messages[2].content).toContain('as the narrator:\nA storm rises.');
    const cont = assemblePrompt(story, { role: 'Mara', content: '  ' }, budget, 0, new TokenCounter());
    expect(cont.messages[2].content.endsWith('USER-Y')).toBe(true);
  });

  it('lists the open targets in the task modes only, in the story\'s language', () => {
    const open_targets = [{ title: 'Find the key', type: 'reality' as const }, { title: 'Forgive Ilan', type: 'emotion' as const }];
    const system = (play_mode: PromptStory['play_mode'], extra: Partial<PromptStory> = {}) =>
      assemblePrompt({ ...baseStory, play_mode, open_targets, ...extra }, { role: '', content: '' }, budget, 0, new TokenCounter()).messages[0].content;
    expect(system('fly_free')).not.toContain('Find the key');
    expect(system('tasks_guider')).toMatch(/Nudge the player[\s\S]*Goal: Pay the debt before the storm\n\nOpen goals:\n- \(event\) Find the key\n- \(feeling\) Forgive Ilan$/);
    expect(system('tasks_master')).toMatch(/Drive the plot toward the open goals[\s\S]*- \(event\) Find the key/);
    expect(system('tasks_master', { open_targets: [] })).not.toContain('Open goals');
    expect(system('tasks_guider', { main_text: '玛拉站在码头上。' })).toContain('未完成的目标：\n- （事件）Find the key\n- （情感）Forgive Ilan');
    // The goal's label too, full-width.
    expect(system('tasks_guider', { main_text: '玛拉站在码头上。' })).toContain('目标：Pay the debt before the storm');
  });

  it('speaks Chinese for a Chinese story', () => {
    const story = { ...baseStory, main_text: '玛拉站在码头上，望着远处的灯塔。', author_remark: '' };
    expect(storyLanguage(story.main_text)).toBe('zh');
    const p = assemblePrompt(story, { role: '玛拉', content: '我解开缆绳。' }, budget, 0, new TokenCounter());
    expect(p.messages[0].content).toContain('互动故事的共同作者');
    expect(p.messages[2].content).toContain('玩家以「玛拉」的身份写道：\n我解开缆绳。');
    const narrated = assemblePrompt(story, { role: '', content: '风起了。' }, budget, 0, new TokenCounter());
    expect(narrated.messages[2].content).toContain('玩家以旁白的身份写道：\n风起了。');
    expect(formatUserPart('玛拉', '我解开缆绳。', 'zh')).toBe('玛拉：我解开缆绳。');
    expect(formatUserPart('', ' The wind rose. ', 'en')).toBe('The wind rose.');
    expect(formatUserPart('Mara', '', 'en')).toBe('');
  });

  it('fits a 1,000,000-character story into the context window with the summary, the note and the newest text, quickly', () => {
    const story = { ...baseStory, main_text: novel(1_000_000) + '\nTHE NEWEST LINE.' };
    const counter = new TokenCounter();
    const model = { contextWindow: 32_000, maxOutput: 1000 };
    const times: number[] = [];
    let p = assemblePrompt(story, { role: 'Mara', content: 'Go on.' }, model, 0, counter);
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now();
      p = assemblePrompt(story, { role: 'Mara', content: `Go on ${i}.` }, model, 0, counter);
      times.push(performance.now() - t0);
    }
    const exact = p.messages.reduce((n, m) => n + countTokens(m.content) + 4, 3);
    expect(exact + model.maxOutput).toBeLessThanOrEqual(model.contextWindow);
    expect(exact).toBeGreaterThan(model.contextWindow * 0.85);
    const all = joined(p);
    expect(all).toContain('Mara stole the ledger from the customs house.');
    expect(all).toContain('Keep it tense and short.');
    expect(all).toContain('THE NEWEST LINE.');
    expect(p.textStart).toBeGreaterThan(800_000);
    expect(p.fold).toEqual({ from: 0, to: expect.any(Number) });
    expect(p.fold!.to).toBeGreaterThan(p.textStart);
    times.sort((a, b) => a - b);
    // Generous bound for slow CI machines; the benchmark reports the real figure.
    expect(times[4]).toBeLessThan(250);
  });

  it('asks for no fold once the summary covers what falls out of the window', () => {
    const story = { ...baseStory, main_text: novel(200_000) };
    const counter = new TokenCounter();
    const first = assemblePrompt(story, { role: '', content: '' }, budget, 0, counter);
    expect(first.fold).not.toBeNull();
    const after = assemblePrompt(story, { role: '', content: '' }, budget, first.fold!.to, counter);
    expect(after.fold).toBeNull();
    // A little more text does not fold again at once.
    const grown = { ...story, main_text: story.main_text + novel(2000) };
    expect(assemblePrompt(grown, { role: '', content: '' }, budget, first.fold!.to, counter).fold).toBeNull();
  });

  it('builds a fold request that fits, keeping the newest part of an overlong text', () => {
    const text = novel(300_000) + ' LAST.';
    const msgs = foldMessages('Earlier things.', text, 'en', 6000, 800, new TokenCounter());
    expect(msgs[1].content).toMatch(/^<previous-summary>\nEarlier things\.\n<\/previous-summary>\n<new-text>\n[\s\S]*LAST\.\n<\/new-text>$/);
    expect(countTokens(msgs.map((m) => m.content).join('\n'))).toBeLessThanOrEqual(6000);
  });

  it('reads a card\'s {{user}} as the player\'s role, or as "you" / "你" for the narrator', () => {
    expect(resolveUserMacro('{{user}} and {{USER}} meet.', ' Mara ', 'en')).toBe('Mara and Mara meet.');
    expect(resolveUserMacro('{{user}} meets Lin.', '', 'en')).toBe('you meets Lin.');
    expect(resolveUserMacro('林月看着{{user}}。', '', 'zh')).toBe('林月看着你。');
    expect(resolveUserMacro('No macro.', 'Mara', 'en')).toBe('No macro.');
  });

  describe('with lore', () => {
    const entry = (id: string, keys: string[], content: string, more: Partial<LoreEntry> = {}): LoreEntry => ({
      id, title: id, keys, secondary_keys: [], content, constant: false, enabled: true, order: 100, case_sensitive: false, whole_words: true, scan_depth: null, ...more,
    });
    const lore = (entries: LoreEntry[], token_budget = 1024) => compileLore(1, { ...DEFAULT_LORE_SETTINGS, token_budget }, entries);

    it('puts the entries that fired between the summary and the story text, and its parts add up to the messages', () => {
      const story = { ...baseStory, lore: lore([entry('Ledger', ['ledger'], 'The ledger names every bribe.'), entry('Storm', ['storm'], 'Storms close the harbour.'), entry('Map', ['map'], 'Never sent.')]) };
      const p = assemblePrompt(story, { role: 'Mara', content: 'I hide the ledger before the storm. Reply to {{user}}.' }, budget, 0, new TokenCounter());
      expect(p.messages[1].content).toMatch(/the customs house\.\n\n## World info \(what matters now\)\nThe ledger names every bribe\.\n\nStorms close the harbour\.\n\n## The story so far/);
      expect(p.messages[1].content).not.toContain('Never sent');
      p.parts.forEach((m, i) => expect(m.parts.map((part) => part.text).join('')).toBe(p.messages[i].content));
      expect(p.promptTokens).toBe(p.parts.flatMap((m) => m.parts).reduce((n, part) => n + part.tokens, p.overheadTokens));
      expect(Math.abs(p.promptTokens - p.messages.reduce((n, m) => n + countTokens(m.content) + 4, 3))).toBeLessThan(16);
      expect(p.parts[1].parts.filter((part) => part.kind === 'lore').map((part) => part.lore!.source)).toEqual(['line', 'line']);
    });

    it('resolves {{user}} to the player\'s role and keeps the lore within half the room left', () => {
      const big = entry('Big', ['pier'], 'Pier lore. '.repeat(2000));
      const small = entry('Mine', ['pier'], '{{user}} knows the pier.', { order: 200 });
      const tight = { contextWindow: 2048, maxOutput: 256 };
      const p = assemblePrompt({ ...baseStory, lore: lore([big, small], 64_000) }, { role: 'Mara', content: '' }, tight, 0, new TokenCounter());
      expect(p.lore.budget).toBeLessThan(1000);
      expect(p.lore.leftOut.map((l) => l.title)).toEqual(['Big']);
      expect(p.messages[1].content).toContain('Mara knows the pier.');
      expect(p.lore.used).toBeLessThanOrEqual(p.lore.budget);
    });

    it('gives the fold the lore its text fires', () => {
      const msgs = foldMessages('Before.', 'Mara met Ilan.', 'en', 6000, 800, new TokenCounter(), ['Ilan is the harbour master.']);
      expect(msgs[1].content).toBe('<previous-summary>\nBefore.\n</previous-summary>\n<world-info>\nIlan is the harbour master.\n</world-info>\n<new-text>\nMara met Ilan.\n</new-text>');
    });
  });
});
