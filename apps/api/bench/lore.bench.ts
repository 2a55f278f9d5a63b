/**
 * Lore: activation (which entries fire) over a 1,000,000-character story with 2,000 entries of 5
 * keywords each, and whole prompt assembly with that lore, through the same code a send runs
 * (lore/lore-activation.ts, play/context/prompt-builder.ts). The matcher is built once per lore
 * version and cached (LoreService.forPrompt): its build is measured apart. Prints figures; never
 * fails on a time.
 *
 *   pnpm --filter @taleloom/api bench:lore      (BENCH_RUNS=50 by default)
 */
import 'reflect-metadata';
import { DEFAULT_LORE_SETTINGS, LORE_SCAN_DEPTH_MAX, type LoreEntry } from '@taleloom/contracts';
import { performance } from 'node:perf_hooks';
import { TokenCounter } from '../src/generation/token-counter';
import { activateLore, compileLore } from '../src/lore/lore-activation';
import { assemblePrompt } from '../src/play/context/prompt-builder';
import { benchStory } from './support/prompt-story';
import { record } from './support/report';
import { pct } from './support/stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const STORY_CHARS = 1_000_000;
const ENTRIES = 2_000;
const KEYS_PER_ENTRY = 5;

// A deterministic generator, so every run measures the same story and lore.
function random(seed: number) {
  let s = seed;
  return () => {
    // Math.imul keeps the product exact (a float product past 2^53 falls into short cycles).
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

// Names: Latin words (matched as whole words) and two-character Chinese words (matched anywhere).
const SYLLABLES = ['ash', 'bel', 'cor', 'dun', 'el', 'fen', 'gar', 'hol', 'ir', 'jor', 'kel', 'lun', 'mor', 'nar', 'os', 'pel', 'quin', 'ros', 'sar', 'tor'];
const HANZI = '龙城山河风雪月星海林石门塔桥湖云火剑书灯钟船马鹰狼鹿梅竹松';
function vocabulary(n: number): string[] {
  const next = random(7);
  const words = new Set<string>();
  while (words.size < n) {
    if (next() < 0.5) {
      const w = SYLLABLES[Math.floor(next() * SYLLABLES.length)] + SYLLABLES[Math.floor(next() * SYLLABLES.length)] + SYLLABLES[Math.floor(next() * SYLLABLES.length)];
      words.add(w[0].toUpperCase() + w.slice(1));
    } else {
      words.add(HANZI[Math.floor(next() * HANZI.length)] + HANZI[Math.floor(next() * HANZI.length)] + HANZI[Math.floor(next() * HANZI.length)]);
    }
  }
  return [...words];
}

function storyText(words: string[]): string {
  const next = random(11);
  const parts: string[] = [];
  let n = 0;
  const fillers = ['The wind turned.', 'Nobody answered.', '雨一直下。', 'They walked on in silence.', '灯火渐暗。'];
  while (n < STORY_CHARS) {
    const s = `${fillers[Math.floor(next() * fillers.length)]} ${words[Math.floor(next() * words.length)]} waited by the gate. `;
    parts.push(s);
    n += s.length;
  }
  return parts.join('').slice(0, STORY_CHARS);
}

function lore(words: string[]): LoreEntry[] {
  const next = random(13);
  return Array.from({ length: ENTRIES }, (_, i) => ({
    id: `e${i}`,
    title: `Entry ${i}`,
    keys: Array.from({ length: KEYS_PER_ENTRY }, () => words[Math.floor(next() * words.length)]),
    secondary_keys: [],
    content: `Entry ${i}: ${words[i % words.length]} is part of this world, with a short history of a sentence or two.`,
    constant: i < 5,
    enabled: true,
    order: Math.floor(next() * 1000),
    case_sensitive: false,
    whole_words: true,
    scan_depth: null,
  }));
}


export async function run(): Promise<void> {
  const words = vocabulary(6_000);
  const text = storyText(words);
  const entries = lore(words);
  console.log(`\nLore: ${STORY_CHARS.toLocaleString('en')}-character story, ${ENTRIES.toLocaleString('en')} entries of ${KEYS_PER_ENTRY} keywords`);

  const builds: number[] = [];
  let compiled = compileLore(1, DEFAULT_LORE_SETTINGS, entries);
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    compiled = compileLore(1, DEFAULT_LORE_SETTINGS, entries);
    builds.push(performance.now() - t0);
  }
  console.log(`   matcher build (once per lore change): p50 ${pct(builds, 50).toFixed(2)} ms`);
  record({ suite: 'lore', measure: `matcher build, ${ENTRIES.toLocaleString('en')} entries x ${KEYS_PER_ENTRY} keywords (once per lore change, cached)`, unit: 'ms', median: pct(builds, 50) });

  const counter = new TokenCounter();
  for (const depth of [DEFAULT_LORE_SETTINGS.scan_depth, LORE_SCAN_DEPTH_MAX]) {
    const settings = { ...DEFAULT_LORE_SETTINGS, scan_depth: depth };
    const book = compileLore(1, settings, entries);
    const times: number[] = [];
    let fired = 0;
    let grown = text;
    for (let i = 0; i < RUNS + 5; i++) {
      grown = `${grown}\nMara: I look for ${words[(i * 37) % words.length]}. The reply came slowly.`;
      // A send reads the text from the database as one flat string; a string grown by + here is a rope
      // that V8 flattens (a 1 MB copy) on first read: done before the clock starts.
      grown.charCodeAt(0);
      const t0 = performance.now();
      // Rendered and measured under one memo name, as a send does (prompt-builder.ts): the first run measures
      // every entry it fires, later ones only entries not measured yet.
      const result = activateLore(
        book,
        { text: grown, line: `I ask about ${words[(i * 53) % words.length]}.`, note: 'Keep it tense.' },
        1024,
        (c) => counter.count(`\n\n${c}`),
        undefined,
        'bench',
      );
      const took = performance.now() - t0;
      // The first runs warm the token counter's cache and the JIT.
      if (i >= 5) times.push(took);
      fired = result.fired.length + result.leftOut.length;
    }
    console.log(`   activation, scan depth ${depth.toLocaleString('en')} chars: p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms (${fired} entries fired)`);
    record({
      suite: 'lore',
      measure: `activation, ${STORY_CHARS.toLocaleString('en')} chars, ${ENTRIES.toLocaleString('en')} entries x ${KEYS_PER_ENTRY} keywords, scan depth ${depth.toLocaleString('en')}`,
      unit: 'ms',
      median: pct(times, 50),
      p99: pct(times, 99),
      target: 'p50 < 5 ms',
      met: pct(times, 50) < 5,
      note: `${fired} entries fired`,
    });
  }

  const story = benchStory(text, { lore: compiled });
  for (const window of [8192, 32_000, 128_000]) {
    const assemblyCounter = new TokenCounter();
    const budget = { contextWindow: window, maxOutput: 1000 };
    assemblePrompt(story, { role: 'Mara', content: 'Go on.' }, budget, 0, assemblyCounter);
    const times: number[] = [];
    let grown = story;
    let loreParts = 0;
    for (let i = 0; i < 30; i++) {
      grown = { ...grown, main_text: `${grown.main_text}\nMara: I look for ${words[(i * 37) % words.length]}. The reply came slowly.` };
      const t0 = performance.now();
      const prompt = assemblePrompt(grown, { role: 'Mara', content: `I ask about ${words[(i * 53) % words.length]}.` }, budget, 0, assemblyCounter);
      times.push(performance.now() - t0);
      loreParts = prompt.parts[1].parts.filter((p) => p.kind === 'lore').length;
    }
    console.log(`   prompt assembly with lore, context ${window}: p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms (${loreParts} entries in)`);
    record({
      suite: 'lore',
      measure: `prompt assembly with lore, ${STORY_CHARS.toLocaleString('en')} chars, ${window}-token context`,
      unit: 'ms',
      median: pct(times, 50),
      p99: pct(times, 99),
      target: 'p50 < 50 ms',
      met: pct(times, 50) < 50,
      note: `${loreParts} entries in the prompt`,
    });
  }
}

if (require.main === module) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
