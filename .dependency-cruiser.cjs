// @ts-check
/**
 * The folder boundaries of src/ and of the workspace packages, checked by dependency-cruiser in `npm run lint`
 * (docs/code-health.md): the layering of scripts/module-map.cjs (CONTRIBUTING.md's module map), imports across
 * folders only through a folder's index.ts, a package reached only through its main entry and importing nothing
 * of src/, and no cycle between folders or modules.
 */

const { BASE, MODULE_MAP, PACKAGES, EVERYTHING } = require('./scripts/module-map.cjs');

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A package's files: its folder in the workspace (packages are linked, so an import resolves to them), or the
 * package as installed under node_modules.
 */
const packagePath = (name) => `^(${escapeRegExp(PACKAGES[name].folder)}|node_modules/${escapeRegExp(name)})/`;
/** The paths a map key names: a folder's files, one top-level module, or a workspace package. */
const pathOf = (key) =>
  key in PACKAGES
    ? packagePath(key)
    : key.endsWith('.ts')
      ? `^src/${escapeRegExp(key)}$`
      : `^src/${escapeRegExp(key)}/`;
const nameOf = (entry) => (typeof entry === 'string' ? entry : entry.name);

const layerRules = Object.entries(MODULE_MAP).flatMap(([key, allowed]) => {
  if (allowed === EVERYTHING) return [];
  const rules = [
    {
      name: `layer:${key}`,
      comment: `${key} may import only ${allowed.map(nameOf).join(', ') || 'the base modules'} (CONTRIBUTING.md, module map)`,
      severity: 'error',
      from: { path: pathOf(key) },
      to: {
        path: ['^src/', ...Object.keys(PACKAGES).map(packagePath)],
        pathNot: [pathOf(key), ...BASE.map(pathOf), ...allowed.map((entry) => pathOf(nameOf(entry)))],
      },
    },
  ];
  for (const entry of allowed) {
    if (typeof entry === 'string') continue;
    rules.push({
      name: `layer:${key}:${entry.only}:${entry.name}`,
      comment: `${key} may import ${entry.name} only ${entry.only === 'types' ? 'for its types' : 'lazily, with await import()'}`,
      severity: 'error',
      from: { path: pathOf(key) },
      to: {
        path: pathOf(entry.name),
        dependencyTypesNot: entry.only === 'types' ? ['type-only'] : ['type-only', 'dynamic-import'],
      },
    });
  }
  return rules;
});

const packageRules = Object.entries(PACKAGES).flatMap(([name, { folder, mayImport }]) => [
  {
    name: `package:${name}`,
    comment: `${name} imports nothing of docbench's src/ and of the other packages only ${mayImport.join(', ') || 'none'} (CONTRIBUTING.md, module map)`,
    severity: 'error',
    from: { path: `^${escapeRegExp(folder)}/` },
    to: {
      path: ['^src/', ...Object.keys(PACKAGES).map(packagePath)],
      pathNot: [packagePath(name), ...mayImport.map(packagePath)],
    },
  },
  {
    name: `package-entry:${name}`,
    comment: `${name} is reached only through its main entry (package.json "exports" "."), never its modules`,
    severity: 'error',
    from: { path: '^src/' },
    to: {
      path: packagePath(name),
      pathNot: `${packagePath(name)}(src/index\\.ts|dist/index\\.(js|d\\.ts)|index\\.(js|d\\.ts))$`,
    },
  },
]);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    ...packageRules,
    {
      name: 'through-index',
      comment:
        'another folder is reached only through its index.ts, which says what it offers (the entry points cli.ts and index.ts deep-import modules to load them lazily)',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'through-index:top-level',
      comment: 'top-level modules reach a folder only through its index.ts',
      severity: 'error',
      from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/(cli|index)\\.ts$' },
      to: { path: '^src/[^/]+/', pathNot: '^src/[^/]+/index\\.ts$' },
    },
    {
      name: 'no-folder-cycle',
      comment: 'folders depend on each other one way only (type-only imports aside)',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-cycle',
      comment: 'no module imports itself through others at run time',
      severity: 'error',
      from: { path: '^(src|packages)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // A workspace package resolves to its TypeScript source (tsconfig.json's customConditions), so the rules
    // follow into packages/*/src.
    enhancedResolveOptions: {
      conditionNames: ['@docbench/source', 'import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
    },
  },
};
