import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { EnvironmentVariables } from './env.validation';

// docs/configuration.md documents every setting once. Its "## API settings" part holds one table row per
// name the API validates, `| `NAME` | default | allowed values | meaning |`; "## Other variables" lists
// what Node, libraries and the test runners read. These tests keep the page, the class and .env.example
// in step, and say which names differ.
const root = join(__dirname, '..', '..', '..', '..');
const page = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
const example = readFileSync(join(root, '.env.example'), 'utf8');

const NAME = /`([A-Z][A-Z0-9_]*)`/g;

/** The lines of the part of the page under `## <heading>`, up to the next `## ` heading. */
function part(heading: string): string[] {
  const lines = page.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`docs/configuration.md has no "## ${heading}" heading`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Table rows of those lines: the names in the first cell, and the cells. */
function rows(lines: string[]): { names: string[]; cells: string[] }[] {
  return lines
    .filter((line) => line.startsWith('| ') && !line.startsWith('|---'))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '').trim());
      return { names: [...cells[0].matchAll(NAME)].map((m) => m[1]), cells };
    })
    .filter((row) => row.names.length > 0);
}

const defaults = new EnvironmentVariables() as unknown as Record<string, unknown>;
// The class's properties, those with a default and those without (`NAME?: string`, which the
// instance does not hold): the validation metadata names them all.
function classNames(): string[] {
  const metas = getMetadataStorage().getTargetValidationMetadatas(EnvironmentVariables, '', true, false);
  return [...new Set([...Object.keys(defaults), ...metas.map((m) => m.propertyName)])].sort();
}

const difference = (a: string[], b: string[]) => a.filter((n) => !b.includes(n));

describe('docs/configuration.md', () => {
  const apiRows = rows(part('API settings'));
  const otherRows = rows(part('Other variables'));

  it('documents exactly the settings the API validates', () => {
    const documented = apiRows.flatMap((r) => r.names).sort();
    const validated = classNames();
    const missing = difference(validated, documented);
    const extra = difference(documented, validated);
    expect({ 'validated but not documented': missing, 'documented but not validated': extra }).toEqual({
      'validated but not documented': [],
      'documented but not validated': [],
    });
  });

  it('documents each name once, one name a row', () => {
    const all = [...apiRows, ...otherRows].flatMap((r) => r.names);
    const twice = [...new Set(all.filter((n, i) => all.indexOf(n) !== i))];
    expect({ 'documented more than once': twice }).toEqual({ 'documented more than once': [] });
    expect(apiRows.filter((r) => r.names.length !== 1).map((r) => r.cells[0])).toEqual([]);
  });

  it("gives each setting the class's default", () => {
    const wrong = apiRows
      .filter(({ names: [name] }) => defaults[name] !== undefined)
      .filter(({ names: [name], cells }) => !cells[1]?.includes(`\`${String(defaults[name])}\``))
      .map(({ names: [name], cells }) => `${name}: page says ${cells[1]}, class says ${String(defaults[name])}`);
    expect(wrong).toEqual([]);
  });

  it('agrees with .env.example', () => {
    const inExample = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    const documented = [...apiRows, ...otherRows].flatMap((r) => r.names);
    expect({
      'in .env.example but not documented': difference(inExample, documented),
      'API settings missing from .env.example': difference(classNames(), inExample),
    }).toEqual({ 'in .env.example but not documented': [], 'API settings missing from .env.example': [] });
  });
});
