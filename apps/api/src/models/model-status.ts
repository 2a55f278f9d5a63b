import { ModelStatus } from '@taleloom/contracts';

/** One finished call: its first-token latency, or a failure. */
interface Sample {
  at: number;
  firstTokenMs: number | null;
  failed: boolean;
}

export interface StatusThresholds {
  /** Samples older than this do not count. */
  windowMs: number;
  /** How many recent samples are kept per model. */
  keep: number;
  fastMs: number;
  stableMs: number;
  busyMs: number;
}

export const DEFAULT_THRESHOLDS: StatusThresholds = {
  windowMs: 15 * 60_000,
  keep: 30,
  fastMs: 1500,
  stableMs: 4000,
  busyMs: 10_000,
};

/**
 * Measures each model's health from its recent calls on this API instance: median first-token
 * latency and the share of failures. (Each instance measures what it sees; nothing is shared.)
 * 0 fast, 1 stable, 2 busy, 3 delay, 4 unknown (no recent call).
 */
export class ModelStatusTracker {
  private readonly samples = new Map<string, Sample[]>();
  private pushes = 0;

  constructor(
    private readonly thresholds: StatusThresholds = DEFAULT_THRESHOLDS,
    private readonly now: () => number = Date.now,
  ) {}

  recordSuccess(model: string, firstTokenMs: number): void {
    this.push(model, { at: this.now(), firstTokenMs, failed: false });
  }

  recordFailure(model: string): void {
    this.push(model, { at: this.now(), firstTokenMs: null, failed: true });
  }

  status(model: string): ModelStatus {
    const since = this.now() - this.thresholds.windowMs;
    const recent = (this.samples.get(model) ?? []).filter((s) => s.at >= since);
    if (recent.length === 0) return ModelStatus.UNKNOWN;
    const failures = recent.filter((s) => s.failed).length / recent.length;
    const latencies = recent.filter((s) => !s.failed).map((s) => s.firstTokenMs as number);
    if (failures >= 0.5 || latencies.length === 0) return ModelStatus.DELAY;
    const median = medianOf(latencies);
    if (median > this.thresholds.busyMs) return ModelStatus.DELAY;
    if (failures >= 0.2 || median > this.thresholds.stableMs) return ModelStatus.BUSY;
    if (failures > 0 || median > this.thresholds.fastMs) return ModelStatus.STABLE;
    return ModelStatus.FAST;
  }

  /** Models with samples kept (platform models and users' own). */
  get size(): number {
    return this.samples.size;
  }

  private push(model: string, sample: Sample): void {
    const list = this.samples.get(model) ?? [];
    list.push(sample);
    if (list.length > this.thresholds.keep) list.splice(0, list.length - this.thresholds.keep);
    this.samples.set(model, list);
    if (++this.pushes % SWEEP_EVERY === 0) this.sweep();
  }

  // A model not called within the window is "unknown" anyway: its samples go, so the map does not
  // keep every user's model ever used (renamed and deleted ones included).
  private sweep(): void {
    const since = this.now() - this.thresholds.windowMs;
    for (const [model, list] of this.samples) if ((list.at(-1)?.at ?? 0) < since) this.samples.delete(model);
  }
}

// How many calls between two sweeps of models gone quiet.
const SWEEP_EVERY = 1000;

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
