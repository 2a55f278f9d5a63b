import { countTokens } from 'gpt-tokenizer';
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

  it('handles Chinese text', () => {
    const zh = '灯塔看守人又一次爬上楼梯，望着灰色的大海。'.repeat(300);
    const counter = new TokenCounter(256);
    const fit = counter.tailThatFits(zh, 500);
    expect(countTokens(zh.slice(fit.start))).toBeLessThanOrEqual(500);
    expect(countTokens(zh.slice(fit.start))).toBeGreaterThan(420);
  });
});
