import type { Plugin } from 'vite';

export interface ScreenChunks {
  /**
   * Lazily loaded screens (React.lazy's import()), each by the module id (absolute path) of its chunk,
   * in order: a shared module goes to the chunk of the first that reaches it.
   */
  screens: Record<string, string>;
  /** Screens whose common code is one chunk, rather than the first one's. */
  together: string[];
}

// antd's components whose folder is not their name in kebab case.
const BARREL_DIRS: Record<string, string> = { QRCode: 'qr-code' };

/**
 * Fewer requests for every first screen. Rolldown puts code shared by a set of lazily
 * loaded chunks (the screens, their dialogs, the menus) into a chunk per set: /stories and /play each
 * needed about twenty of them, many of a few kilobytes (antd's components, icons, the app's helpers),
 * and over HTTP/1.1 every one is a request at the phone's round trip. This names, for Rolldown's
 * `codeSplitting.groups`, a chunk per screen for the shared code it reaches through static imports
 * (`<screen>-shared`: the first screen of the list that reaches the module), and one for the code the
 * `together` screens have in common (`screens-shared`). The libraries' code the page's entry reaches
 * is one chunk (`entry-lib`: it was a handful of common chunks); the entry's own code, and what only one
 * lazily loaded chunk has, stay where Rolldown puts them.
 *
 * Reaching is counted on the module graph before tree shaking, with antd's and the icons' index modules
 * resolved to the components the app names; other libraries' index modules (`@rc-component/util`,
 * imported by antd's components) count whole, so `entry-lib` holds a few small helpers only a screen
 * uses. Groups take their modules alone (`includeDependenciesRecursively: false`): a module's imports
 * are named by their own reach, so the chunks import each other in one direction only (a screen's
 * chunks import the entry's, never the reverse).
 */

export function screenChunks(spec: ScreenChunks): { plugin: Plugin; name: (id: string) => string | null } {
  // Module id → the screens that reach it statically; filled once the module graph is complete.
  let reachedBy = new Map<string, string[]>();
  let entryCode = new Set<string>();
  let owners = new Map<string, Set<string>>();

  // The libraries' index modules (`import { Button } from 'antd'`) re-export every component: reached
  // through them, every screen would reach all of antd. What the app's modules take from them instead.
  const barrels = new Set<string>();
  const fromBarrels = new Map<string, string[]>();

  const plugin: Plugin = {
    name: 'taleloom-screen-chunks',
    apply: 'build',
    async transform(code, id) {
      if (id.includes('/node_modules/')) return null;
      const taken: string[] = [];
      for (const [, names, library] of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](antd|@ant-design\/icons)["']/g)) {
        const barrel = await this.resolve(library as string, id);
        if (barrel) barrels.add(barrel.id);
        for (const raw of (names as string).split(',')) {
          const name = raw.trim().split(/\s+as\s+/)[0]?.trim() ?? '';
          if (!/^[A-Za-z]\w*$/.test(name)) continue;
          const path = library === 'antd' ? `antd/es/${BARREL_DIRS[name] ?? name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}` : `@ant-design/icons/es/icons/${name}`;
          const resolved = await this.resolve(path, id);
          if (resolved) taken.push(resolved.id);
        }
      }
      if (taken.length > 0) fromBarrels.set(id, taken);
      return null;
    },
    buildEnd() {
      const staticClosure = (from: string): Set<string> => {
        const seen = new Set<string>();
        const stack = [from];
        while (stack.length > 0) {
          const id = stack.pop() as string;
          if (seen.has(id)) continue;
          seen.add(id);
          for (const next of this.getModuleInfo(id)?.importedIds ?? []) if (!barrels.has(next)) stack.push(next);
          for (const next of fromBarrels.get(id) ?? []) stack.push(next);
        }
        return seen;
      };
      const ids = [...this.getModuleIds()];
      const entries = ids.filter((id) => this.getModuleInfo(id)?.isEntry);
      // What each lazily loaded chunk reaches on its own: a module two of them share is a chunk of its own.
      const dynamicEntries = new Set(ids.flatMap((id) => [...(this.getModuleInfo(id)?.dynamicallyImportedIds ?? [])]));
      entryCode = new Set(entries.flatMap((e) => [...staticClosure(e)]));
      owners = new Map();
      for (const d of dynamicEntries) {
        for (const id of staticClosure(d)) {
          if (!owners.has(id)) owners.set(id, new Set());
          owners.get(id)?.add(d);
        }
      }
      reachedBy = new Map();
      for (const [screen, id] of Object.entries(spec.screens)) {
        if (!this.getModuleInfo(id)) this.error(`screen chunks: ${screen} (${id}) is not a module of the build`);
        for (const m of staticClosure(id)) reachedBy.set(m, [...(reachedBy.get(m) ?? []), screen]);
      }
    },
  };

  const name = (id: string): string | null => {
    const screens = reachedBy.get(id);
    // The libraries' code of the entry: one chunk (the entry's own code stays in the entry's chunks).
    if (entryCode.has(id)) return id.includes('/node_modules/') ? 'entry-lib' : null;
    // What no screen reaches, and a screen's own code (one lazily loaded chunk reaches it, or the
    // screen's module itself), stay put.
    if (!screens || (owners.get(id)?.size ?? 0) <= 1) return null;
    if (Object.values(spec.screens).includes(id)) return null;
    const first = screens[0] as string;
    if (spec.together.includes(first) && spec.together.filter((s) => screens.includes(s)).length > 1) return 'screens-shared';
    return `${first}-shared`;
  };

  return { plugin, name };
}
