import type { StreamEvent } from '@taleloom/contracts';
import { Generation } from './generation-stream';

describe('Generation', () => {
  it('gives the first listener the events sent before it subscribed, then live ones', () => {
    const g = new Generation('g1', 's1');
    g.emit({ type: 'user', text: 'Hi', role: 'Mara', turnId: 'g1' });
    g.emit({ type: 'delta', text: 'A' });
    const seen: StreamEvent[] = [];
    g.subscribe((e) => seen.push(e));
    g.emit({ type: 'delta', text: 'B' });
    expect(seen.map((e) => e.type)).toEqual(['user', 'delta', 'delta']);
    expect(seen.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).toBe('AB');
  });

  it('a later listener gets live events only', () => {
    const g = new Generation('g1', 's1');
    g.subscribe(() => undefined);
    g.emit({ type: 'delta', text: 'A' });
    const late: StreamEvent[] = [];
    g.subscribe((e) => late.push(e));
    g.emit({ type: 'delta', text: 'B' });
    expect(late).toEqual([{ type: 'delta', text: 'B' }]);
  });

  it('a generation that ended before anyone subscribed still hands over its end', async () => {
    const g = new Generation('g1', 's1');
    for (let i = 0; i < 1000; i++) g.emit({ type: 'delta', text: 'x' });
    g.emit({ type: 'usage', promptTokens: 1, completionTokens: 1000, cost: 0 });
    g.emit({ type: 'done', turnId: 'g1' });
    await g.done;
    const seen: StreamEvent[] = [];
    g.subscribe((e) => seen.push(e));
    expect(seen.at(-1)).toEqual({ type: 'done', turnId: 'g1' });
    expect(seen.some((e) => e.type === 'usage')).toBe(true);
    // Bounded: not every early delta is kept.
    expect(seen.length).toBeLessThan(300);
  });
});
