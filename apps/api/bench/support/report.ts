// The figures every benchmark records, for the one table and JSON file `pnpm bench` ends with.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';

export interface BenchRow {
  /** The benchmark it comes from: power, stories, files, lore, play. */
  suite: string;
  measure: string;
  unit: string;
  median: number;
  p99?: number;
  /** The direct or baseline figure measured in the same run, when there is one. */
  baseline?: { label: string; median: number; p99?: number };
  /** What the issue asks, in words (e.g. "added p99 < 50 ms"). */
  target?: string;
  met?: boolean;
  note?: string;
}

const rows: BenchRow[] = [];

export function record(row: BenchRow): void {
  rows.push(row);
}

const fixed = (n: number | undefined, digits = 2) => (n === undefined || !Number.isFinite(n) ? '' : n.toFixed(digits));

/** The ratio shown beside a row: the median (or p99 when only that is compared) over the baseline's. */
function ratio(row: BenchRow): string {
  if (!row.baseline) return '';
  const parts: string[] = [];
  if (row.baseline.median > 0) parts.push(`${(row.median / row.baseline.median).toFixed(1)}x p50`);
  if (row.p99 !== undefined && row.baseline.p99 !== undefined && row.baseline.p99 > 0) parts.push(`${(row.p99 / row.baseline.p99).toFixed(1)}x p99`);
  return parts.join(', ');
}

export function printTable(list: readonly BenchRow[] = rows): void {
  console.log(`\nAll figures (load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${cpus().length} CPUs)`);
  console.table(
    list.map((r) => ({
      suite: r.suite,
      measure: r.measure,
      median: `${fixed(r.median)} ${r.unit}`,
      p99: r.p99 === undefined ? '' : `${fixed(r.p99)} ${r.unit}`,
      baseline: r.baseline ? `${r.baseline.label}: ${fixed(r.baseline.median)}${r.baseline.p99 === undefined ? '' : ` / ${fixed(r.baseline.p99)}`} ${r.unit}` : '',
      ratio: ratio(r),
      target: r.target ?? '',
      met: r.met === undefined ? '' : r.met ? 'yes' : 'NO',
    })),
  );
}

export function writeJson(file: string, meta: Record<string, unknown>, list: readonly BenchRow[] = rows): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify(
      { ...meta, node: process.version, cpus: cpus().length, loadAverage: loadavg(), at: new Date().toISOString(), rows: list },
      null,
      2,
    )}\n`,
  );
}

/** A benchmark run on its own (`pnpm --filter @taleloom/api bench:<name>`): its table at the end; exit code 1 if it broke. */
export function runAlone(run: () => Promise<void>): void {
  run()
    .then(() => printTable())
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
