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

  describe('a turn (positioned)', () => {
    const turn = () => {
      const g = new Generation('g1', 's1', true);
      g.emit({ type: 'user', text: 'Hi', role: '', turnId: 'g1' });
      g.emit({ type: 'reasoning', text: 'think ' });
      g.emit({ type: 'delta', text: 'Abc' });
      g.emit({ type: 'delta', text: '潮🌊' });
      return g;
    };

    it('gives every event its position: text and reasoning characters so far (UTF-16 code units)', () => {
      const g = turn();
      const ids: (string | undefined)[] = [];
      g.subscribe((_, id) => ids.push(id));
      expect(ids).toEqual(['0:0', '0:6', '3:6', '6:6']);
      expect(g.at).toEqual({ text: 6, reasoning: 6 });
    });

    it('follows from the start, from a position and from ahead of the stream, then live', () => {
      const g = turn();
      const seen: [StreamEvent, string | undefined][][] = [[], [], []];
      g.follow(null, (e, id) => seen[0].push([e, id]));
      g.follow({ text: 3, reasoning: 6 }, (e, id) => seen[1].push([e, id]));
      // Ahead (text 8 of a stream at 6): the first 2 characters of what comes are left out.
      g.follow({ text: 8, reasoning: 6 }, (e, id) => seen[2].push([e, id]));
      g.emit({ type: 'delta', text: 'wxyz' });
      g.emit({ type: 'done', turnId: 'g1' });
      expect(seen[0].map(([e]) => e)).toEqual([
        { type: 'user', text: 'Hi', role: '', turnId: 'g1' },
        { type: 'reasoning', text: 'think ' },
        { type: 'delta', text: 'Abc潮🌊' },
        { type: 'delta', text: 'wxyz' },
        { type: 'done', turnId: 'g1' },
      ]);
      expect(seen[0].map(([, id]) => id)).toEqual(['6:6', '6:6', '6:6', '10:6', '10:6']);
      expect(seen[1].map(([e]) => e)).toEqual([{ type: 'delta', text: '潮🌊' }, { type: 'delta', text: 'wxyz' }, { type: 'done', turnId: 'g1' }]);
      expect(seen[2].map(([e]) => e)).toEqual([{ type: 'delta', text: 'yz' }, { type: 'done', turnId: 'g1' }]);
    });

    it('lets go of its text when it ends: a later rejoin reads the stored turn', () => {
      const g = turn();
      g.emit({ type: 'error', code: 'PROVIDER_ERROR', message: 'x' });
      expect(g.follow(null, () => undefined)).toBeNull();
    });
  });
});
