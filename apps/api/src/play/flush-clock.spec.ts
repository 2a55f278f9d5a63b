import { FlushClock } from './flush-clock';

describe('FlushClock', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('flushes every stream on the same tick, and no stream after it stopped; the timer goes with the last one', () => {
    const clock = new FlushClock(1000);
    const calls: string[] = [];
    const stopA = clock.add(() => calls.push('a'));
    jest.advanceTimersByTime(400);
    const stopB = clock.add(() => calls.push('b'));
    jest.advanceTimersByTime(600);
    // B joined 600 ms before the tick: it is flushed with A, not on a second of its own.
    expect(calls).toEqual(['a', 'b']);
    stopA();
    jest.advanceTimersByTime(1000);
    expect(calls).toEqual(['a', 'b', 'b']);
    stopB();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(5000);
    expect(calls).toHaveLength(3);
  });
});
