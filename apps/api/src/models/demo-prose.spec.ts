import { demoContinuation, demoSummary, detectLanguage, pickName, seededRandom } from './demo-prose';

describe('demo prose', () => {
  it('detects the language of the story', () => {
    expect(detectLanguage('The rain fell on the old town.')).toBe('en');
    expect(detectLanguage('雨落在古老的小镇上。Alice 走进来。')).toBe('zh');
  });

  it('writes about the role of the last line', () => {
    expect(pickName('Prologue\nMara: I open the door.', 'en')).toBe('Mara');
    expect(pickName('小林：我推开门。', 'zh')).toBe('小林');
    expect(pickName('The wind blew.', 'en')).toBe('the traveller');
    expect(pickName('Continue the story.\n\nThe player writes as Captain Ilan:\nStop!', 'en')).toBe('Captain Ilan');
    expect(pickName('请继续这个故事。\n\n玩家以「玛拉」的身份写道：\n我来了。', 'zh')).toBe('玛拉');
    expect(pickName('The player writes as the narrator:\nRain.', 'en')).toBe('the traveller');
  });

  it('varies from call to call and stays readable', () => {
    const texts = new Set(Array.from({ length: 10 }, (_, i) => demoContinuation('en', i % 2 ? 'Mara' : 'the traveller', seededRandom(i + 1))));
    expect(texts.size).toBeGreaterThan(5);
    for (const t of texts) {
      expect(t).toMatch(/[.!?"]$/);
      expect(t).toMatch(/^["“]?[A-Z]/);
      expect(t).not.toMatch(/\{\w+\}/);
    }
    const zh = demoContinuation('zh', '小林', seededRandom(7));
    expect(zh).toMatch(/[。”]$/);
    expect(zh).toContain('小林');
  });

  it('condenses text for a fold', () => {
    const s = demoSummary('Before.', 'Mara found a key. It was old.\n\nThey left the harbour at dawn. Nobody saw.', 'en');
    expect(s).toBe('Before. Mara found a key. They left the harbour at dawn.');
  });
});
