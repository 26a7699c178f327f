import { defineConfig } from 'vitest/config';

// The workspace packages (packages/*) are tested from their TypeScript source, which they export under this
// condition (tsconfig.json), before vitest's own server conditions (Vite's without `module`, whose builds Node
// cannot always load); a process a test starts (bin/docbench.js) runs their built dist/.
const conditions = ['@docbench/source', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './test/plain-summary-reporter.ts'],
  },
});
