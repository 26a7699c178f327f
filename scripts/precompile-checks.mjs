// Build step after tsc: writes the fixed JSON Schema checks as ajv standalone code into dist/precompiled-checks/
// (see src/schema-check.ts), so that reading a run directory does not compile them in every process. Every
// module that defines a check is imported first: defining one registers it.
import '../dist/run-dir/formats/index.js';
import '../dist/dataset/manifest.js';
import { writePrecompiledChecks } from '../dist/schema-check.js';

await writePrecompiledChecks();
