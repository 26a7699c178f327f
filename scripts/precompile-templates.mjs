// Build step after tsc: precompiles the report templates into dist/render/ (see compileTemplateFiles in
// src/render/templates.ts), so that writing reports does not parse and compile them in every process.
import { writePrecompiledTemplates } from '../dist/render/templates.js';

await writePrecompiledTemplates();
