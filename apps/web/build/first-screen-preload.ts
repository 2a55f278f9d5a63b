import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** Modules, by id (absolute path) or a pattern on it, whose chunks a first screen needs. */
type Modules = (string | RegExp)[];

export interface FirstScreens {
  /** Each entry screen: `all` its chunks in every language, and those of one language only. */
  screens: Record<string, { all: Modules } & Partial<Record<string, Modules>>>;
  /** The interface language's strings (and whatever else a language loads before the first render). */
  languages: Record<string, Modules>;
  /** Screens that need a signed-in user: signed out, the page shows `signIn` instead. */
  signedIn: string[];
  signIn: string;
  /** Where `/` goes. */
  home: string;
}

interface Boot {
  screens: Record<string, Record<string, string[]>>;
  languages: Record<string, string[]>;
  signedIn: string[];
  signIn: string;
  home: string;
}

const BOOT_SOURCE = new URL('./first-screen-boot.js', import.meta.url);

function chunksOf(bundle: OutputBundle): OutputChunk[] {
  return Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
}

/** A chunk's file and every chunk it imports statically, recursively. */
function closure(chunk: OutputChunk, byFile: Map<string, OutputChunk>, into = new Set<string>()): Set<string> {
  if (into.has(chunk.fileName)) return into;
  into.add(chunk.fileName);
  for (const file of chunk.imports) {
    const imported = byFile.get(file);
    if (imported) closure(imported, byFile, into);
  }
  return into;
}

/**
 * The first screen's files announced from the page's first script: index.html loads the entry and what
 * it imports (Vite's modulepreload links), but the screen's chunk, its style sheets and the language's
 * strings are asked for only once the entry has run. A small script (build/first-screen-boot.js), the
 * first of the page, picks the screen and the language as the app will and adds their preload links at
 * once, so those files load beside the entry's. An external file, not an inline script: the API's
 * Content-Security-Policy allows scripts from the page's origin only.
 */
export function firstScreenPreload(spec: FirstScreens): Plugin {
  let base = '/';
  return {
    name: 'taleloom-first-screen-preload',
    apply: 'build',
    // After Vite's HTML plugin has written index.html into the bundle.
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = chunksOf(bundle);
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const entry = chunks.find((c) => c.isEntry);
      const html = bundle['index.html'];
      if (!entry || !html || html.type !== 'asset') this.error('first-screen preload: the entry chunk or index.html is missing');
      const loaded = closure(entry, byFile);
      // A module's chunk; a pattern no chunk's module matches may name a file of the build (a style sheet
      // imported alone has no chunk: Vite leaves its importer a link to add).
      const filesOf = (module: string | RegExp): { chunk?: OutputChunk; file?: string } => {
        const chunk = chunks.find((c) => c.moduleIds.some((id) => (typeof module === 'string' ? id === module : module.test(id))));
        if (chunk) return { chunk };
        const file = typeof module === 'string' ? undefined : Object.keys(bundle).find((f) => module.test(f));
        if (!file) this.error(`first-screen preload: no chunk nor file has ${String(module)}`);
        return { file };
      };
      // The chunks of `modules` and what they import, but those the page loads anyway; then their CSS.
      const files = (modules: Modules = []): string[] => {
        const js = new Set<string>();
        const other: string[] = [];
        for (const m of modules) {
          const { chunk, file } = filesOf(m);
          if (chunk) closure(chunk, byFile, js);
          if (file) other.push(file);
        }
        const own = [...js].filter((f) => !loaded.has(f));
        const css = [...js].flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]).filter((f) => !entry.viteMetadata?.importedCss.has(f));
        return [...new Set([...own, ...css, ...other])].map((f) => base + f);
      };
      const boot: Boot = {
        screens: Object.fromEntries(
          Object.entries(spec.screens).map(([path, byLang]) => [
            path,
            // A language's own files, but those every language has.
            Object.fromEntries(Object.entries(byLang).map(([lang, modules]) => [lang, lang === 'all' ? files(modules) : files(modules).filter((f) => !files(byLang.all).includes(f))])),
          ]),
        ),
        languages: Object.fromEntries(Object.entries(spec.languages).map(([lang, modules]) => [lang, files(modules)])),
        signedIn: spec.signedIn,
        signIn: spec.signIn,
        home: spec.home,
      };
      const template = readFileSync(BOOT_SOURCE, 'utf8');
      const source = template.replace('var FILES = __FIRST_SCREEN__;', `var FILES = ${JSON.stringify(boot)};`);
      if (source === template) this.error('first-screen preload: first-screen-boot.js has no `var FILES = __FIRST_SCREEN__;` to fill in');
      const name = `assets/first-screen-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName: name, source });
      // First in <head>: asked for before the entry, and run (async) as soon as it has come.
      const page = String(html.source);
      html.source = page.replace('<head>', `<head>\n    <script async src="${base}${name}"></script>`);
    },
  };
}
