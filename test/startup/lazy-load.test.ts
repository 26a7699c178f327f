/**
 * Heavy dependencies load where they are used (CONTRIBUTING.md, Habits): `docbench --version` and `--help`
 * import none of them, nor yargs, and importing the library's main entry loads no part of the local engine or the sample generator,
 * no package that only some calls need, and none of the modules only a run needs.
 * Each case runs the source (not a possibly stale dist/) in a fresh node with a resolve hook that records
 * every module URL, and at exit every CommonJS module loaded.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMAND_HEADERS } from '../../src/commands/headers.js';
import { SYSTEM_KINDS } from '../../src/systems/registry.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const recorder = pathToFileURL(path.join(root, 'test/helpers/record-imports.mjs')).href;
const logDir = mkdtempSync(path.join(tmpdir(), 'docbench-imports-'));
afterAll(() => rmSync(logDir, { recursive: true, force: true }));

/** The engine's and generator's packages: native image code, PDF engines, OCR, barcodes, templates. */
const HEAVY = ['sharp', '@napi-rs/canvas', 'pdfjs-dist', 'tesseract.js', 'handlebars', 'zxing-wasm', 'pdfkit'];

/**
 * Packages only some library calls need (schemas, config files, HTTP, templates, CSV, diffs, HTML tables,
 * edit distances, AWS signing): they load with the first such call, not with the main entry.
 */
const ON_FIRST_USE = [
  'ajv',
  'ajv-formats',
  'undici',
  'handlebars',
  'yaml',
  'parse5',
  'diff',
  'csv-stringify',
  'fast-levenshtein',
  '@smithy/signature-v4',
  '@aws-crypto/sha256-js',
];

/**
 * Runs `script` (an ES module body) under tsx with the recorder, `env` added to the environment; returns the
 * packages it loaded and its stdout.
 */
function recordImports(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv = {},
): { packages: Set<string>; urls: string[]; stdout: string } {
  const log = path.join(logDir, `${name}.log`);
  const result = spawnSync(
    process.execPath,
    // The workspace packages' source too (their exports' source condition, tsconfig.json).
    ['--conditions=@docbench/source', '--import', 'tsx', '--import', recorder, '--input-type=module', '-e', script],
    {
      cwd: root,
      env: { ...process.env, ...env, DOCBENCH_IMPORT_LOG: log },
      encoding: 'utf8',
    },
  );
  expect(result.status, result.stderr).toBe(0);
  const packages = new Set<string>();
  const urls = readFileSync(log, 'utf8').split('\n');
  for (const url of urls) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match) packages.add(match[1]!);
  }
  return { packages, urls, stdout: result.stdout };
}

/** The modules behind the main entry's asynchronous forwarders (src/index.ts). */
const RUN_OR_REPORT_ONLY = [
  'src/run/run-benchmark.ts',
  'src/run/merge.ts',
  'src/evaluate/evaluate-run.ts',
  'src/finalize.ts',
  'packages/local-engine/src/index.ts',
  'src/report/index.ts',
  'src/report/build-view.ts',
  'src/gate/index.ts',
  'src/gate/run-gate.ts',
  'src/gate/diff-runs.ts',
  'src/gate/baselines.ts',
  'src/gate/history.ts',
];

/**
 * The provider kinds, from the registry: every kind whose implementation uses the providers' shared helpers
 * (src/systems/providers/). Each keeps its settings apart (`kinds/<kind>-settings.ts`) so that reading a
 * config loads those and not the implementation.
 */
const PROVIDER_KINDS = [...SYSTEM_KINDS.keys()].filter((kind) => {
  const implementation = path.join(root, `src/systems/kinds/${kind}.ts`);
  return existsSync(implementation) && readFileSync(implementation, 'utf8').includes("from '../providers/");
});

const main = pathToFileURL(path.join(root, 'src/index.ts')).href;
const cli = (args: string[]) =>
  `const { main } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'src/cli.ts')).href)}); await main(${JSON.stringify(args)});`;

describe('lazy loading', () => {
  it('docbench --version answers before yargs or any heavy module loads', () => {
    const { packages, urls, stdout } = recordImports('version', cli(['--version']));
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // The recorder sees the modules that do load: proof that the empty checks below mean something.
    expect(urls.some((url) => url.endsWith('/src/cli.ts'))).toBe(true);
    expect(packages.has('yargs')).toBe(false);
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });

  it('docbench --help lists every command before yargs or any command module loads', () => {
    // In English: yargs translates its help for other locales, so there --help still goes through it.
    const { packages, urls, stdout } = recordImports('help', cli(['--help']), { LC_ALL: 'C.UTF-8' });
    for (const header of Object.values(COMMAND_HEADERS)) expect(stdout).toContain(`docbench ${header.command}`);
    expect(urls.some((url) => url.endsWith('/src/commands/help.ts'))).toBe(true);
    expect(packages.has('yargs')).toBe(false);
    expect(
      urls.filter((url) => url.includes('/src/commands/') && !/\/(help|headers|global-options|program)\.ts$/.test(url)),
    ).toEqual([]);
    // Nor version.ts, which reads package.json through node:fs (cli.ts imports it for --version alone).
    expect(urls.filter((url) => url.endsWith('/src/version.ts') || url.startsWith('node:'))).toEqual([]);
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });

  it('dataset generate --help loads its command module but not the generator', () => {
    const { packages } = recordImports('generate-help', cli(['dataset', 'generate', '--help']));
    expect(packages.has('yargs')).toBe(true);
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });

  it("import('docbench') loads neither the local engine nor the sample generator", () => {
    const { packages, urls } = recordImports(
      'library',
      `await import(${JSON.stringify(pathToFileURL(path.join(root, 'src/index.ts')).href)});`,
    );
    expect(urls.some((url) => url.endsWith('/src/score/index.ts'))).toBe(true);
    expect(HEAVY.filter((name) => name !== 'handlebars' && packages.has(name))).toEqual([]);
  });

  it("import('docbench') loads none of the packages only some calls need (no schema is compiled)", () => {
    const { packages, urls } = recordImports('library-lazy', `await import(${JSON.stringify(main)});`);
    // The recorder sees the main entry's own modules, among them those that use every package above.
    // (run-dir/, whose check-file.ts compiles schemas, no longer loads with the main entry at all.)
    for (const user of ['src/config.ts', 'src/service/client.ts', 'src/score/tables/parse-html-tables.ts']) {
      expect(
        urls.some((url) => url.endsWith(`/${user}`)),
        user,
      ).toBe(true);
    }
    expect(ON_FIRST_USE.filter((name) => packages.has(name))).toEqual([]);
    // The run-only and report-only entry points are forwarders: their modules load with the first call, and
    // with them the reporters (markdown-diff.ts is the one that uses diff).
    for (const runOnly of [
      ...RUN_OR_REPORT_ONLY,
      'src/report/markdown-diff.ts',
      'src/report/reporters/html-reporter.ts',
    ]) {
      expect(
        urls.some((url) => url.endsWith(`/${runOnly}`)),
        runOnly,
      ).toBe(false);
    }
    // resolveConfig reads the provider kinds' settings; their implementations and helpers load with a system.
    expect(PROVIDER_KINDS.length).toBeGreaterThan(0);
    expect(
      PROVIDER_KINDS.filter((kind) => !urls.some((url) => url.endsWith(`/src/systems/kinds/${kind}-settings.ts`))),
    ).toEqual([]);
    expect(urls.filter((url) => PROVIDER_KINDS.some((kind) => url.endsWith(`/src/systems/kinds/${kind}.ts`)))).toEqual(
      [],
    );
    expect(
      urls.filter((url) => /\/src\/systems\/providers\/(http|layout|pages|raw|strict-schema)\.ts$/.test(url)),
    ).toEqual([]);
  });

  it('a forwarder loads its module on the first call, and only that one', () => {
    const reportsDir = path.join(logDir, 'no-baselines');
    const { urls, stdout } = recordImports(
      'library-forwarder',
      `const { resolveBaseline } = await import(${JSON.stringify(main)});
       console.log(JSON.stringify(await resolveBaseline(${JSON.stringify(reportsDir)}, 'sample')));`,
    );
    expect(stdout.trim()).toBe('null'); // no baselines.json: nothing pinned
    expect(urls.some((url) => url.endsWith('/src/gate/baselines.ts'))).toBe(true);
    expect(
      RUN_OR_REPORT_ONLY.filter(
        (module) => module !== 'src/gate/baselines.ts' && urls.some((url) => url.endsWith(`/${module}`)),
      ),
    ).toEqual([]);
  });

  it("a provider kind's implementation loads when a system of that kind is created, not when a config names it", () => {
    const registry = JSON.stringify(pathToFileURL(path.join(root, 'src/systems/registry.ts')).href);
    const systemsConfig = JSON.stringify(pathToFileURL(path.join(root, 'src/systems/config.ts')).href);
    const implementation = [
      'src/systems/kinds/mistral-ocr.ts',
      'src/systems/providers/http.ts',
      'src/systems/providers/pages.ts',
    ];
    const loaded = (urls: string[]) =>
      implementation.filter((module) => urls.some((url) => url.endsWith(`/${module}`)));
    const parse = `const { findSystemKind } = await import(${registry});
       const { parseKindOptions } = await import(${systemsConfig});
       const kind = findSystemKind('mistral-ocr');
       const options = parseKindOptions(kind, { model: 'm' }, 'systems.ocr');
       console.log(kind.operations(options).join(','), kind.secretEnvNames(options).join(','));`;
    const parsed = recordImports('kind-settings', parse);
    expect(parsed.stdout.trim()).toBe('extract,compare,process MISTRAL_API_KEY');
    expect(parsed.urls.some((url) => url.endsWith('/src/systems/kinds/mistral-ocr-settings.ts'))).toBe(true);
    expect(loaded(parsed.urls)).toEqual([]);
    // Creating one runs the implementation: it reads the key first, and there is none.
    const created = recordImports(
      'kind-create',
      `${parse}
       await kind.create(options, { name: 'ocr', env: {} }).catch((error) => console.log(error.message));`,
    );
    expect(created.stdout.trim().split('\n')[1]).toBe('MISTRAL_API_KEY, named by systems.ocr.apiKeyEnv, is not set');
    expect(loaded(created.urls)).toEqual(implementation);
  });

  it('a package loaded on first use is recorded once a call needs it, ES module or CommonJS', () => {
    const { packages, stdout } = recordImports(
      'library-first-use',
      `const docbench = await import(${JSON.stringify(main)});
       console.log(docbench.findTables('<table><tr><td>a</td></tr></table>').length, docbench.markdownSimilarity('kitten', 'sitting').raw.similarity.toFixed(2));`,
    );
    expect(stdout.trim()).toBe('1 0.57'); // one table; 1 − 3 edits ÷ 7 code points
    expect(packages.has('parse5')).toBe(true);
    expect(packages.has('fast-levenshtein')).toBe(true);
  });

  it('a client loads undici in prepare(), which the runner awaits before its calls, not when it is created', () => {
    const { stdout } = recordImports(
      'client-prepare',
      `const { createClient } = await import(${JSON.stringify(main)});
       const { createRequire } = await import('node:module');
       const loaded = async () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/undici/'));
       const client = createClient({ baseUrl: 'http://127.0.0.1:9' });
       const before = await loaded();
       await client.prepare();
       console.log(before, await loaded());
       await client.close();`,
    );
    expect(stdout.trim()).toBe('false true');
  });

  it('the local engine does load once the service starts (the recorder would see it)', () => {
    const { packages } = recordImports(
      'serve',
      `const { startLocalService } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'packages/local-engine/src/index.ts')).href)});
       const service = await startLocalService({ ocrWorkers: 1, dataDir: ${JSON.stringify(path.join(logDir, 'serve-data'))} });
       await service.close();`,
    );
    expect(packages.has('pdfjs-dist')).toBe(true);
    expect(packages.has('sharp')).toBe(true);
  });
});
