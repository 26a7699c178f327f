/**
 * The engine in this process, without HTTP (the package's `./in-process` entry, docs/reference.md "In-process
 * entry"): analyse a document once, then read its fields for any number of schemas, or its markdown. What a
 * benchmark trying many schemas on the same pages needs. Unlike the main entry, loading this one loads the engine
 * (pdf.js, sharp, the OCR's code).
 */
export { createEngine, type Engine } from './engine.js';
export { buildExtractResult, buildMarkdownPages } from './endpoints.js';
export type { AnalysedDocument } from './analyse-document.js';
export { silentLogger, type JsonSchema } from './contract.js';
/** How the engine reads a schema field's name, title and description: the role it fills, or null (scored on bench/field-roles). */
export { classifyField, type FieldRole } from './extract/field-roles.js';
