#!/usr/bin/env node
// Puts the figures of the last `pnpm bench` (bench-results/latest.json) into docs/benchmarks.md, between the
// markers <!-- bench:start --> and <!-- bench:end -->. Run it after `pnpm bench`: `pnpm bench:readme`.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = JSON.parse(readFileSync(join(root, 'bench-results', 'latest.json'), 'utf8'));
const readmePath = join(root, 'docs', 'benchmarks.md');
const readme = readFileSync(readmePath, 'utf8');
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';
if (!readme.includes(START) || !readme.includes(END)) {
  console.error(`docs/benchmarks.md has no ${START} ... ${END} section`);
  process.exit(1);
}

const num = (n) => (typeof n === 'number' && Number.isFinite(n) ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2)) : '');
const cell = (s) => String(s ?? '').replace(/\|/g, '\\|');
const ratio = (r) => {
  if (!r.baseline) return '';
  const parts = [];
  if (r.baseline.median > 0) parts.push(`${(r.median / r.baseline.median).toFixed(1)}x p50`);
  if (r.p99 !== undefined && r.baseline.p99 > 0) parts.push(`${(r.p99 / r.baseline.p99).toFixed(1)}x p99`);
  return parts.join(', ');
};

const lines = [
  START,
  `Measured ${results.at.slice(0, 10)} on ${results.cpus} CPUs (Node ${results.node}, database: ${results.database}; the benchmark's clients, stub and database share the machine), in ${results.seconds} s.`,
  '',
  '| Suite | Measure | Median | p99 | Baseline in the same run (median / p99) | Ratio | Target | Met |',
  '|---|---|---|---|---|---|---|---|',
  ...results.rows.map((r) =>
    [
      r.suite,
      r.measure,
      `${num(r.median)} ${r.unit}`,
      r.p99 === undefined ? '' : `${num(r.p99)} ${r.unit}`,
      r.baseline ? `${r.baseline.label}: ${num(r.baseline.median)}${r.baseline.p99 === undefined ? '' : ` / ${num(r.baseline.p99)}`} ${r.unit}` : '',
      ratio(r),
      r.target ?? '',
      r.met === undefined ? '' : r.met ? 'yes' : '**no**',
    ]
      .map(cell)
      .join(' | ')
      .replace(/^/, '| ')
      .replace(/$/, ' |'),
  ),
  END,
];
const updated = readme.replace(new RegExp(`${START}[\\s\\S]*?${END}`), lines.join('\n'));
writeFileSync(readmePath, updated);
console.log(`docs/benchmarks.md: benchmark table from ${results.at}`);
