import { FlushClock } from './flush-clock';

describe('FlushClock', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('flushes every stream on the same tick, and no stream after it stopped; the timer goes with the last one', () => {
    const clock = new FlushClock(1000);
    const calls: string[] = [];
    const stopA = clock.add(() => calls.push('a'));
    vi.advanceTimersByTime(400);
    const stopB = clock.add(() => calls.push('b'));
    vi.advanceTimersByTime(600);
    // B joined 600 ms before the tick: it is flushed with A, not on a second of its own.
    expect(calls).toEqual(['a', 'b']);
    stopA();
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual(['a', 'b', 'b']);
    stopB();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(calls).toHaveLength(3);
  });
});
