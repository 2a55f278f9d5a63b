// What the burst benchmark prints and records: each round's line, each level's medians over its rounds
// (records for the report table), issue #17's goals beside them, and the closing summary table.
import type { BurstResult } from './burst-streams';
import { BUILDS, f, mb, median, modelNote, SEQ_N, state, type Build } from './burst-settings';
import type { ProcessWatch } from './process-stats';
import { record } from './report';
import { pct } from './stats';

export interface Round {
  /** The same burst through the bare relay (null: BENCH_BURST_RELAY=0). */
  relay: { result: BurstResult; stats: ReturnType<ProcessWatch['stop']> } | null;
  direct: BurstResult;
  api: BurstResult;
  apiStats: ReturnType<ProcessWatch['stop']>;
  dbStats: ReturnType<ProcessWatch['stop']> | null;
  stubStats: ReturnType<ProcessWatch['stop']>;
  /** The story list's read times (ms) beside the API burst and at rest just before it (empty at level 1). */
  reads: { burst: number[]; rest: number[]; errors: number };
}

// What a side (the API, the bare relay) added to the direct burst in one round.
function addedInRound(side: BurstResult, direct: BurstResult): string {
  return (
    `first token added p50 ${f(pct(side.firstTokens, 50) - pct(direct.firstTokens, 50))} p99 ${f(pct(side.firstTokens, 99) - pct(direct.firstTokens, 99))} ms;` +
    ` chunk p99 added ${f(pct(side.latencies, 99) - pct(direct.latencies, 99))} ms`
  );
}

export function printRound(level: number, r: number, round: Round, build: Build): void {
  const { direct, api, reads } = round;
  const tag = BUILDS.length > 1 ? ` [${build.label}]` : '';
  const errors = [...api.errorKinds].map(([k, v]) => `${v}x ${k}`).join('; ');
  const read = reads.rest.length ? `; read p50/p99 rest ${f(pct(reads.rest, 50), 0)}/${f(pct(reads.rest, 99), 0)} burst ${f(pct(reads.burst, 50), 0)}/${f(pct(reads.burst, 99), 0)} ms${reads.errors ? ` (${reads.errors} failed)` : ''}` : '';
  console.log(
    `   round ${r + 1}${tag}: ${addedInRound(api, direct)}${read}; errors ${api.errors}${errors ? ` (${errors})` : ''}${direct.errors ? `, direct errors ${direct.errors}` : ''};` +
      ` API ${f(round.apiStats.cpuPercent, 0)}% CPU, peak ${f(mb(round.apiStats.peakRss), 0)} MB` +
      (round.dbStats ? `; DB ${f(round.dbStats.cpuPercent, 0)}% CPU` : '') +
      `; client ${f(state.clientCpu, 0)}%${level > 1 ? `; ${f(api.seconds)} s` : ''}`,
  );
  if (round.relay && build === BUILDS[0]) {
    const { result: relayed, stats } = round.relay;
    console.log(
      `   round ${r + 1} bare relay: ${addedInRound(relayed, direct)}; errors ${relayed.errors}; relay ${f(stats.cpuPercent, 0)}% CPU, peak ${f(mb(stats.peakRss), 0)} MB`,
    );
  }
}

/** One row of the closing table: a side's medians over the rounds of a level, with their min-max. */
interface SummaryRow {
  level: string;
  side: string;
  cells: string[];
}
const summary: SummaryRow[] = [];
const SUMMARY_HEAD = ['first token added p50', 'first token p50', 'chunk p99 added', 'read p99 burst', 'read p99 rest', 'errors', 'peak RSS MB'];
// "median [min-max]" of a figure over rounds.
function spread(values: number[], digits = 0): string {
  const v = values.filter(Number.isFinite);
  if (!v.length) return 'n/a';
  return `${f(median(v), digits)} [${f(Math.min(...v), digits)}-${f(Math.max(...v), digits)}]`;
}

function summaryRow(level: string, side: string, rounds: Round[], pick: (r: Round) => BurstResult, peak: number, reads: boolean): void {
  summary.push({
    level,
    side,
    cells: [
      spread(rounds.map((r) => pct(pick(r).firstTokens, 50) - pct(r.direct.firstTokens, 50))),
      spread(rounds.map((r) => pct(pick(r).firstTokens, 50))),
      spread(rounds.map((r) => pct(pick(r).latencies, 99) - pct(r.direct.latencies, 99)), 1),
      reads ? spread(rounds.map((r) => pct(r.reads.burst, 99))) : '',
      reads ? spread(rounds.map((r) => pct(r.reads.rest, 99))) : '',
      String(rounds.reduce((sum, r) => sum + pick(r).errors, 0)),
      f(mb(peak), 0),
    ],
  });
}

export function printSummary(): void {
  if (!summary.length) return;
  console.log(`\n| level | side | ${SUMMARY_HEAD.join(' | ')} |\n|${'---|'.repeat(SUMMARY_HEAD.length + 2)}`);
  for (const row of summary) console.log(`| ${row.level} | ${row.side} | ${row.cells.join(' | ')} |`);
  console.log('(ms; median of rounds [min-max over rounds]; read: GET /api/user/story-list by the readers)');
}

/**
 * The latency figures of one side of the rounds (the API's, the bare relay's) and the same rounds' direct
 * burst, as medians of rounds: first token and per-chunk latency, what the side added to them, errors.
 */
function sideFigures(rounds: Round[], side: (r: Round) => BurstResult) {
  const of = (pick: (r: Round) => number) => median(rounds.map(pick));
  return {
    d50: of((r) => pct(r.direct.firstTokens, 50)),
    d99: of((r) => pct(r.direct.firstTokens, 99)),
    a50: of((r) => pct(side(r).firstTokens, 50)),
    a99: of((r) => pct(side(r).firstTokens, 99)),
    add50: of((r) => pct(side(r).firstTokens, 50) - pct(r.direct.firstTokens, 50)),
    add99: of((r) => pct(side(r).firstTokens, 99) - pct(r.direct.firstTokens, 99)),
    c50: of((r) => pct(side(r).latencies, 50)),
    c99: of((r) => pct(side(r).latencies, 99)),
    dc50: of((r) => pct(r.direct.latencies, 50)),
    dc99: of((r) => pct(r.direct.latencies, 99)),
    addC99: of((r) => pct(side(r).latencies, 99) - pct(r.direct.latencies, 99)),
    errors: rounds.reduce((sum, r) => sum + side(r).errors, 0),
    streams: rounds.reduce((sum, r) => sum + side(r).firstTokens.length + side(r).errors, 0),
    /** Per round: "rounds: a, b, c" of `pick`. */
    rounded: (pick: (r: Round) => number) => `rounds: ${rounds.map((r) => f(pick(r))).join(', ')}`,
  };
}

/** The two latency records of a side (first token, per-chunk) beside the direct burst, with a level's goal if any. */
function recordLatencies(label: string, rounds: Round[], side: (r: Round) => BurstResult, goal?: Goal): void {
  const { d50, d99, a50, a99, add50, add99, c50, c99, dc50, dc99, addC99, errors, streams, rounded } = sideFigures(rounds, side);
  record({
    suite: 'burst',
    measure: `first token, ${label}`,
    unit: 'ms',
    median: a50,
    p99: a99,
    baseline: { label: 'direct to stub', median: d50, p99: d99 },
    target: goal?.firstToken,
    met: goal?.firstTokenMet?.(add50, add99),
    note: `added p50 ${f(add50)} ms (${rounded((r) => pct(side(r).firstTokens, 50) - pct(r.direct.firstTokens, 50))}), added p99 ${f(add99)} ms (${rounded((r) => pct(side(r).firstTokens, 99) - pct(r.direct.firstTokens, 99))}); errors ${errors}/${streams}`,
  });
  record({
    suite: 'burst',
    measure: `per-chunk latency, ${label}`,
    unit: 'ms',
    median: c50,
    p99: c99,
    baseline: { label: 'direct to stub', median: dc50, p99: dc99 },
    target: goal?.chunk,
    met: goal?.chunkMet?.(addC99, errors),
    note: `added p99 ${f(addC99)} ms (${rounded((r) => pct(side(r).latencies, 99) - pct(r.direct.latencies, 99))}); errors ${errors}/${streams}`,
  });
}

// The bare relay's figures of a level (the same in every build's rounds): the reference beside the API's.
export function reportRelay(level: number, rounds: Round[]): void {
  const withRelay = rounds.filter((r) => r.relay);
  if (!withRelay.length) return;
  const of = (pick: (r: Round) => number) => median(withRelay.map(pick));
  const relayed = (r: Round) => r.relay!.result;
  const label = `bare relay, ${level === 1 ? `sequential (${SEQ_N} sends)` : `${level} opened at once`}`;
  const { add50, add99, addC99, errors, streams } = sideFigures(withRelay, relayed);
  const cpu = of((r) => r.relay!.stats.cpuPercent);
  const ms = of((r) => (r.relay!.stats.cpuSeconds * 1000) / Math.max(1, relayed(r).firstTokens.length + relayed(r).errors));
  const peak = Math.max(...withRelay.map((r) => r.relay!.stats.peakRss));
  summaryRow(level === 1 ? '1' : String(level), 'bare relay', withRelay, relayed, peak, false);
  console.log(
    `   ${label}, median of ${withRelay.length} round(s): first token added p50 ${f(add50)} ms, p99 ${f(add99)} ms; per-chunk added p99 ${f(addC99)} ms;` +
      ` errors ${errors}/${streams}; relay ${f(cpu, 0)}% CPU (${f(ms, 2)} ms a stream), peak RSS ${f(mb(peak))} MB`,
  );
  recordLatencies(label, withRelay, relayed);
  record({ suite: 'burst', measure: `relay process CPU time per stream, ${label}`, unit: 'ms', median: ms, note: `CPU ${f(cpu, 0)} % of one core; peak RSS ${f(mb(peak))} MB` });
}

export function report(level: number, rounds: Round[], build: Build): void {
  const of = (pick: (r: Round) => number) => median(rounds.map(pick));
  const label = (level === 1 ? `sequential (${SEQ_N} sends)` : `${level} opened at once`) + modelNote() + (BUILDS.length > 1 ? ` [${build.label}]` : '');
  const { d50, d99, a50, a99, add50, add99, c99, dc99, addC99, errors, streams, rounded } = sideFigures(rounds, (r) => r.api);
  const apiCpu = of((r) => r.apiStats.cpuPercent);
  const perStream = (r: Round, s: { cpuSeconds: number } | null) => (s ? (s.cpuSeconds * 1000) / Math.max(1, r.api.firstTokens.length + r.api.errors) : NaN);
  const apiMs = of((r) => perStream(r, r.apiStats));
  const dbMs = of((r) => perStream(r, r.dbStats));
  const apiPeak = Math.max(...rounds.map((r) => r.apiStats.peakRss));
  const dbCpu = of((r) => r.dbStats?.cpuPercent ?? NaN);
  const dbPeak = Math.max(...rounds.map((r) => r.dbStats?.peakRss ?? NaN));
  const goal = GOALS[level];
  summaryRow(`${level}${state.levelModel === 'paid' ? 'p' : ''}`, build.label, rounds, (r) => r.api, apiPeak, level > 1);
  console.log(
    `   ${label}, median of ${rounds.length} round(s): first token added p50 ${f(add50)} ms, p99 ${f(add99)} ms (ratio ${f(a50 / d50, 2)}x p50, ${f(a99 / d99, 2)}x p99);` +
      ` per-chunk added p99 ${f(addC99)} ms (${f(c99 / dc99, 2)}x); errors ${errors}/${streams};` +
      ` API ${f(apiCpu, 0)}% CPU (${f(apiMs, 2)} ms a stream), peak RSS ${f(mb(apiPeak))} MB; DB ${f(dbCpu, 0)}% CPU (${f(dbMs, 2)} ms a stream), peak RSS ${f(mb(dbPeak))} MB` +
      (goal ? `\n   goal: ${goal.text}` : ''),
  );
  recordLatencies(label, rounds, (r) => r.api, goal);
  record({
    suite: 'burst',
    measure: `API process peak RSS, ${label}`,
    unit: 'MB',
    median: mb(apiPeak),
    target: goal?.rss,
    met: goal?.rssMet?.(mb(apiPeak)),
    note: `CPU ${f(apiCpu, 0)} % of one core (${rounded((r) => r.apiStats.cpuPercent)}); RSS before the first burst ${f(mb(rounds[0].apiStats.rssBefore))} MB`,
  });
  record({ suite: 'burst', measure: `API process CPU (one core = 100 %), ${label}`, unit: '%', median: apiCpu, note: rounded((r) => r.apiStats.cpuPercent) });
  // CPU time a stream costs: what the machine's other load changes least.
  record({ suite: 'burst', measure: `API process CPU time per stream, ${label}`, unit: 'ms', median: apiMs, note: rounded((r) => perStream(r, r.apiStats)) });
  if (rounds[0].dbStats) {
    record({ suite: 'burst', measure: `database process CPU (one core = 100 %), ${label}`, unit: '%', median: dbCpu, note: rounded((r) => r.dbStats!.cpuPercent) });
    record({ suite: 'burst', measure: `database process peak RSS, ${label}`, unit: 'MB', median: mb(dbPeak) });
    record({ suite: 'burst', measure: `database process CPU time per stream, ${label}`, unit: 'ms', median: dbMs, note: rounded((r) => perStream(r, r.dbStats)) });
  }
}

interface Goal {
  text: string;
  firstToken?: string;
  firstTokenMet?: (add50: number, add99: number) => boolean;
  chunk?: string;
  chunkMet?: (addC99: number, errors: number) => boolean;
  rss?: string;
  rssMet?: (peakMb: number) => boolean;
}

// Issue #17's goals (shown beside the figures; never a failure).
const GOALS: Record<number, Goal> = {
  1: { text: 'first token added p50 <= 2 ms, p99 <= 6 ms', firstToken: 'added p50 <= 2 ms, p99 <= 6 ms', firstTokenMet: (a, b) => a <= 2 && b <= 6 },
  100: {
    text: 'first token added p50 <= 100 ms; per-chunk added p99 <= 5 ms',
    firstToken: 'added p50 <= 100 ms',
    firstTokenMet: (a) => a <= 100,
    chunk: 'added p99 <= 5 ms',
    chunkMet: (c) => c <= 5,
  },
  500: {
    text: 'first token added p50 <= 400 ms, p99 <= 2000 ms; per-chunk added p99 <= 30 ms; API peak RSS <= 250 MB',
    firstToken: 'added p50 <= 400 ms, p99 <= 2000 ms',
    firstTokenMet: (a, b) => a <= 400 && b <= 2000,
    chunk: 'added p99 <= 30 ms',
    chunkMet: (c) => c <= 30,
    rss: '<= 250 MB',
    rssMet: (m) => m <= 250,
  },
  1000: {
    text: 'no errors; per-chunk added p99 <= 60 ms; API peak RSS <= 350 MB',
    chunk: 'added p99 <= 60 ms, no errors',
    chunkMet: (c, e) => c <= 60 && e === 0,
    rss: '<= 350 MB',
    rssMet: (m) => m <= 350,
  },
};
