import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { antdZeroRuntime, styleFunctionRanges } from '../../build/antd-zero-runtime';

// The client build drops antd's style functions (build/antd-zero-runtime.ts): they run only when antd
// computes styles in the browser, which the app's providers turn off (zeroRuntime; the first-screen
// browser test checks that antd writes no component style rule in the page).
const antdFile = (path: string) => readFileSync(createRequire(import.meta.url).resolve(`antd/es/${path}`), 'utf8');

function transform(code: string): string | null {
  const handler = (antdZeroRuntime().transform as { handler: (code: string) => { code: string } | null }).handler;
  return handler(code)?.code ?? null;
}

describe("antd's style functions in the client build", () => {
  it("replaces the button's style function and keeps its component token", () => {
    const source = antdFile('button/style/index.js');
    expect(styleFunctionRanges(source)).toHaveLength(1);
    const out = transform(source) as string;
    expect(out).toMatch(/genStyleHooks\('Button', \(\) => \[\], prepareComponentToken/);
    expect(out).not.toMatch(/genSharedButtonStyle\(buttonToken\)/);
    expect(() => parseAst(out)).not.toThrow();
  });

  it('replaces every hook of a module that has several, and sub-style components', () => {
    const input = antdFile('input/style/index.js');
    const ranges = styleFunctionRanges(input);
    expect(ranges.length).toBeGreaterThanOrEqual(2);
    expect(transform(input)?.match(/\(\) => \[\]/g)).toHaveLength(ranges.length);
    const sub = "export default genSubStyleComponent(['Form', 'item-item'], (token, { rootPrefixCls }) => [token], prepare);";
    expect(transform(sub)).toBe("export default genSubStyleComponent(['Form', 'item-item'], () => [], prepare);");
  });

  it('leaves code without an inline style function as it is', () => {
    expect(transform('export const genStyleHooks = 1;')).toBeNull();
    expect(transform("useStyle(genStyleHooks('X', styleFn, token));")).toBeNull();
  });
});
