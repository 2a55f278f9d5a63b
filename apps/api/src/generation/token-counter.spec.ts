import { countTokens } from 'gpt-tokenizer';
import { collectGarbage } from '../../test/support/collect-garbage';
import { TokenCounter } from './token-counter';

const paragraph = (i: number) =>
  `Paragraph ${i}. The lighthouse keeper climbed the stairs again, counting ${i % 97} steps, and looked out at the grey sea.\n`;
const text = Array.from({ length: 400 }, (_, i) => paragraph(i)).join('');

describe('TokenCounter', () => {
  it('counts close to the real tokenizer, never below it', () => {
    const counter = new TokenCounter(512);
    const exact = countTokens(text);
    const summed = counter.count(text);
    expect(summed).toBeGreaterThanOrEqual(exact);
    expect(summed - exact).toBeLessThanOrEqual(2 * Math.ceil(text.length / 512));
  });

  it('finds the newest text that fits a budget, cut at a boundary', () => {
    const counter = new TokenCounter(512);
    const fit = counter.tailThatFits(text, 1000);
    const tail = text.slice(fit.start);
    expect(countTokens(tail)).toBeLessThanOrEqual(1000);
    expect(countTokens(tail)).toBeGreaterThan(900);
    expect(text.endsWith(tail)).toBe(true);
    expect(/\s/.test(text[fit.start - 1])).toBe(true);
  });

  it('takes everything when it fits, nothing for no budget, and respects a floor', () => {
    const counter = new TokenCounter(512);
    expect(counter.tailThatFits('short text', 100)).toEqual({ start: 0, tokens: 2 });
    expect(counter.tailThatFits(text, 0).start).toBe(text.length);
    expect(counter.tailThatFits(text, 1_000_000, 5000).start).toBe(5000);
  });

  it('keeps no version of a long story alive through its cache (a 1,000,000-character story sent 40 times)', () => {
    const counter = new TokenCounter();
    let story = 'The lighthouse keeper watched the tide. '.repeat(25_000);
    counter.tailThatFits(story, 8000);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) {
      // Each send reads the story anew from the database: a new string, with the last turn appended.
      story = Buffer.from(`${story} Turn ${i}: the boat came back before the storm.`).toString();
      counter.tailThatFits(story, 8000);
    }
    story = '';
    collectGarbage();
    // Keys that were views of each version kept about 40 MB here; keys of their own keep well under 1.
    expect((process.memoryUsage().heapUsed - before) / 1e6).toBeLessThan(10);
  });

  it('finds a chunk cut inside a surrogate pair in its cache again (its key is the same text)', () => {
    const counter = new TokenCounter();
    const text = `${'a'.repeat(2047)}😀${'b'.repeat(100)}`;
    const first = counter.count(text);
    const entries = counter['cache'].size;
    expect(counter.count(text.slice(0))).toBe(first);
    expect(counter['cache'].size).toBe(entries);
  });

  it('handles Chinese text', () => {
    const zh = '灯塔看守人又一次爬上楼梯，望着灰色的大海。'.repeat(300);
    const counter = new TokenCounter(256);
    const fit = counter.tailThatFits(zh, 500);
    expect(countTokens(zh.slice(fit.start))).toBeLessThanOrEqual(500);
    expect(countTokens(zh.slice(fit.start))).toBeGreaterThan(420);
  });
});
