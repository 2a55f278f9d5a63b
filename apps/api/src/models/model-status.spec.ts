import { ModelStatus } from '@taleloom/contracts';
import { DEFAULT_THRESHOLDS, ModelStatusTracker } from './model-status';

describe('ModelStatusTracker', () => {
  let clock = 0;
  const tracker = () => new ModelStatusTracker(DEFAULT_THRESHOLDS, () => clock);
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('is unknown with no recent call, and again once the samples are old', () => {
    const t = tracker();
    expect(t.status('m')).toBe(ModelStatus.UNKNOWN);
    t.recordSuccess('m', 200);
    expect(t.status('m')).toBe(ModelStatus.FAST);
    clock += DEFAULT_THRESHOLDS.windowMs + 1;
    expect(t.status('m')).toBe(ModelStatus.UNKNOWN);
  });

  it('forgets models not called within the window (users\' models come and go), keeping the busy ones', () => {
    const t = tracker();
    for (let i = 0; i < 50; i++) t.recordSuccess(`custom:user${i}:gone`, 200);
    clock += DEFAULT_THRESHOLDS.windowMs + 1;
    for (let i = 0; i < 1000; i++) t.recordSuccess('platform', 300);
    expect(t.size).toBe(1);
    expect(t.status('platform')).toBe(ModelStatus.FAST);
    expect(t.status('custom:user0:gone')).toBe(ModelStatus.UNKNOWN);
  });

  it('grades by median first-token latency', () => {
    const cases: [number, ModelStatus][] = [
      [300, ModelStatus.FAST],
      [2500, ModelStatus.STABLE],
      [6000, ModelStatus.BUSY],
      [12_000, ModelStatus.DELAY],
    ];
    for (const [ms, expected] of cases) {
      const t = tracker();
      for (let i = 0; i < 5; i++) t.recordSuccess('m', ms);
      expect(t.status('m')).toBe(expected);
    }
  });

  it('grades down for failures', () => {
    const t = tracker();
    for (let i = 0; i < 9; i++) t.recordSuccess('m', 100);
    t.recordFailure('m');
    expect(t.status('m')).toBe(ModelStatus.STABLE);
    t.recordFailure('m');
    t.recordFailure('m');
    expect(t.status('m')).toBe(ModelStatus.BUSY);
    for (let i = 0; i < 10; i++) t.recordFailure('m');
    expect(t.status('m')).toBe(ModelStatus.DELAY);
  });

  it('keeps only the newest samples and models apart', () => {
    const t = tracker();
    for (let i = 0; i < 40; i++) t.recordFailure('a');
    for (let i = 0; i < DEFAULT_THRESHOLDS.keep; i++) t.recordSuccess('a', 100);
    expect(t.status('a')).toBe(ModelStatus.FAST);
    expect(t.status('b')).toBe(ModelStatus.UNKNOWN);
  });
});
