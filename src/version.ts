/** docbench's own version, read from package.json once, recorded in every run's provenance. */
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const DOCBENCH_VERSION: string = packageJson.version;
