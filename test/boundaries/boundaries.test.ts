/**
 * The folder boundaries `npm run lint` checks (.dependency-cruiser.cjs over scripts/module-map.cjs): a forbidden
 * import fails them, an allowed one passes, and CONTRIBUTING.md's module map says what the rules enforce.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const { forbidden } = require(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: IForbiddenRuleType[] };
type MapEntry = string | { name: string; only: 'types' | 'lazily' };
const { BASE, MODULE_MAP, PACKAGES, EVERYTHING } = require(path.join(root, 'scripts/module-map.cjs')) as {
  BASE: string[];
  MODULE_MAP: Record<string, '*' | MapEntry[]>;
  PACKAGES: Record<string, { folder: string; mayImport: string[] }>;
  EVERYTHING: '*';
};

/**
 * A small src/ tree: each folder's index.ts exports a value and a type; the local engine as a workspace package,
 * installed (node_modules/@docbench/local-engine, its entry) and in its folder (packages/local-engine).
 */
const FOLDERS = ['service', 'score', 'evaluate', 'run', 'run-dir', 'gate'];
function baseTree(): Record<string, string> {
  const files: Record<string, string> = { 'src/errors.ts': 'export class DocbenchError extends Error {}\n' };
  for (const folder of FOLDERS)
    files[`src/${folder}/index.ts`] =
      `export const ${folder.replace('-', '')}Value = 1;\nexport type ${folder.replace('-', '')}Type = number;\n`;
  files['src/score/extraction/anls.ts'] = 'export const anls = 1;\n';
  files['node_modules/@docbench/local-engine/package.json'] = JSON.stringify({
    name: '@docbench/local-engine',
    main: 'index.js',
  });
  files['node_modules/@docbench/local-engine/index.js'] = 'export const localValue = 1;\n';
  files['node_modules/@docbench/local-engine/engine.js'] = 'export const engine = 1;\n';
  files['packages/local-engine/src/index.ts'] = 'export const localValue = 1;\n';
  return files;
}

const work: string[] = [];
afterEach(async () => {
  await Promise.all(work.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The names of the rules the tree (base tree plus `files`) breaks, one per broken dependency. */
async function brokenRules(files: Record<string, string>): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docbench-boundaries-'));
  work.push(dir);
  for (const [file, text] of Object.entries({ ...baseTree(), ...files })) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const { output } = await cruise(['src', 'packages'], {
    baseDir: dir,
    validate: true,
    ruleSet: { forbidden },
    tsPreCompilationDeps: true,
  });
  const violations = (output as ICruiseResult).summary.violations;
  return violations.map((v) => v.rule.name).sort();
}

describe('the boundary rules', () => {
  it('pass the allowed imports: a listed folder through its index.ts, types where the map says types, a heavy folder lazily', async () => {
    expect(
      await brokenRules({
        'src/evaluate/score-one.ts':
          "import { scoreValue } from '../score/index.js';\nimport { DocbenchError } from '../errors.js';\nexport const x = [scoreValue, DocbenchError];\n",
        'src/score/read.ts':
          "import type { serviceType } from '../service/index.js';\nexport const y: serviceType = 1;\n",
        'src/score/read-inline.ts':
          "import { type serviceType } from '../service/index.js';\nexport const y: serviceType = 1;\n",
        'src/run/pages.ts':
          "export async function load() {\n  return (await import('@docbench/local-engine')).localValue;\n}\n",
      }),
    ).toEqual([]);
  });

  it('fail an import of a folder the module map does not list', async () => {
    expect(
      await brokenRules({
        'src/service/client.ts': "import { rundirValue } from '../run-dir/index.js';\nexport const x = rundirValue;\n",
      }),
    ).toEqual(['layer:service']);
  });

  it('fail a run-time import where the map allows only types', async () => {
    expect(
      await brokenRules({
        'src/score/read.ts': "import { serviceValue } from '../service/index.js';\nexport const x = serviceValue;\n",
      }),
    ).toEqual(['layer:score:types:service']);
  });

  it('fail a static import where the map allows only a lazy one', async () => {
    expect(
      await brokenRules({
        'src/run/pages.ts': "import { localValue } from '@docbench/local-engine';\nexport const x = localValue;\n",
      }),
    ).toEqual(['layer:run:lazily:@docbench/local-engine']);
  });

  it("fail an import of a package's module past its main entry", async () => {
    expect(
      await brokenRules({
        'src/commands/serve.ts':
          "import { engine } from '@docbench/local-engine/engine.js';\nexport const x = engine;\n",
      }),
    ).toEqual(['package-entry:@docbench/local-engine']);
  });

  it("fail a package's import of docbench's src/", async () => {
    expect(
      await brokenRules({
        'packages/local-engine/src/page-ocr.ts':
          "import { DocbenchError } from '../../../src/errors.js';\nexport const x = DocbenchError;\n",
      }),
    ).toEqual(['package:@docbench/local-engine']);
  });

  it("fail an import past another folder's index.ts", async () => {
    expect(
      await brokenRules({
        'src/evaluate/score-one.ts': "import { anls } from '../score/extraction/anls.js';\nexport const x = anls;\n",
      }),
    ).toEqual(['through-index']);
  });

  it('fail a cycle between folders', async () => {
    const broken = await brokenRules({
      'src/gate/index.ts':
        "import { rundirValue } from '../run-dir/index.js';\nexport const gateValue = rundirValue;\n",
      'src/run-dir/index.ts':
        "import { gateValue } from '../gate/index.js';\nexport const rundirValue = 1;\nexport const again = () => gateValue;\n",
    });
    expect(broken).toContain('no-folder-cycle');
    expect(broken).toContain('no-cycle');
  });
});

/** CONTRIBUTING.md's module map as {key: may-import}; a row naming a subfolder is returned apart. */
function parseModuleMap(markdown: string): {
  rows: Map<string, string>;
  subfolders: [string, string][];
  base: string[];
} {
  const section = markdown.slice(markdown.indexOf('## Module map'), markdown.indexOf('## Habits'));
  const rows = new Map<string, string>();
  const subfolders: [string, string][] = [];
  for (const line of section.split('\n').filter((l) => l.startsWith('| `src/'))) {
    const cells = line.split(' | ');
    const mayImport = cells.at(-1)!.replace(/ \|$/, '');
    for (const [, target] of cells[0]!.matchAll(/`src\/([^`]+)`/g)) {
      const key = target!.replace(/\/$/, '');
      if (key.includes('/')) subfolders.push([key, mayImport]);
      else rows.set(key, mayImport);
    }
  }
  const baseLine = section.slice(section.indexOf('base modules'), section.indexOf('Each folder'));
  return { rows, subfolders, base: [...baseLine.matchAll(/`([^`]+\.ts)`/g)].map((m) => m[1]!) };
}

const describeEntry = (entry: MapEntry) => (typeof entry === 'string' ? entry : `${entry.name} (${entry.only})`);
const describeRow = (allowed: '*' | MapEntry[]) =>
  allowed === EVERYTHING ? 'everything' : allowed.length === 0 ? '—' : allowed.map(describeEntry).join(', ');

describe("CONTRIBUTING.md's module map", () => {
  it('places every folder and top-level module of src/: in a row of its own, or among the base modules', async () => {
    const entries = await readdir(path.join(root, 'src'), { withFileTypes: true });
    const names = entries
      .map((entry) => (entry.isDirectory() ? entry.name : entry.name.endsWith('.ts') ? entry.name : null))
      .filter((name) => name !== null);
    expect(names.filter((name) => !(name in MODULE_MAP) && !BASE.includes(name))).toEqual([]);
  });

  it('lists every folder and top-level module with exactly what the rules let it import', async () => {
    const { rows, base } = parseModuleMap(await readFile(path.join(root, 'CONTRIBUTING.md'), 'utf8'));
    const expected = Object.fromEntries(
      Object.entries(MODULE_MAP).map(([key, allowed]) => [key, describeRow(allowed)]),
    );
    expect(Object.fromEntries(rows)).toEqual(expected);
    expect(base).toEqual(BASE);
  });

  it('lists every workspace package with the packages it may import', async () => {
    const markdown = await readFile(path.join(root, 'CONTRIBUTING.md'), 'utf8');
    const rows = markdown.split('\n').filter((line) => line.startsWith('| `packages/'));
    const listed = Object.fromEntries(
      rows.map((line) => {
        const cells = line.split(' | ');
        return [/\(`([^`]+)`\)/.exec(cells[0]!)![1]!, cells.at(-1)!.replace(/ \|$/, '')];
      }),
    );
    const expected = Object.fromEntries(
      Object.entries(PACKAGES).map(([name, { mayImport }]) => [name, mayImport.join(', ') || '—']),
    );
    expect(listed).toEqual(expected);
    for (const { folder } of Object.values(PACKAGES))
      expect(rows.some((row) => row.includes(`\`${folder}/\``))).toBe(true);
  });

  it("gives a subfolder's row only what its folder may import", async () => {
    const { subfolders } = parseModuleMap(await readFile(path.join(root, 'CONTRIBUTING.md'), 'utf8'));
    expect(subfolders.length).toBeGreaterThan(0);
    for (const [key, mayImport] of subfolders) {
      const folder = MODULE_MAP[key.split('/')[0]!]!;
      const allowed = folder === EVERYTHING ? null : new Set(folder.map(describeEntry));
      for (const entry of mayImport.split(', '))
        expect(allowed === null || allowed.has(entry), `${key}: ${entry}`).toBe(true);
    }
  });
});
