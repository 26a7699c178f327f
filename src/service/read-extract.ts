/**
 * Tolerant reading of /extract. The interface declares `response` as a string holding JSON, while clients
 * "read it as a JSON object" and providers have been seen to send an object, JSON wrapped in prose or
 * ``` fences, or nothing at all. Confidence arrives on 0–100 (documented) or 0–1 (seen): normalised to 0–100.
 */
import type { JsonObject } from '../types.js';
import type { ExtractResult } from './types.js';
import type { ShapeReader } from './shape.js';

export function readExtract(body: unknown, reader: ShapeReader): ExtractResult {
  const root = reader.object(body, '(body)');
  const { data, form } = readResponseField(root.response, reader);
  const method = root.method === undefined || root.method === null ? null : reader.string(root.method, 'method');
  if (method !== null && method !== 'fast' && method !== 'slow')
    reader.fail('method', `is ${reader.describe(method)}, expected "fast" or "slow"`);
  const confidence = readConfidence(root.confidence_score, reader);
  const pages = reader.optionalNumber(root.pages_processed, 'pages_processed');
  if (pages !== null && (!Number.isInteger(pages) || pages < 0))
    reader.fail('pages_processed', `is ${pages}, expected a non-negative integer`);
  const imageMetadata = reader.optionalArray(root.image_metadata, 'image_metadata');
  return {
    data,
    responseForm: form,
    method: method as ExtractResult['method'],
    pagesProcessed: pages,
    confidence: confidence?.value ?? null,
    confidenceScale: confidence?.scale ?? null,
    ...(imageMetadata ? { imageMetadata } : {}),
  };
}

/** `response` (a JSON string, an object, JSON in prose or fences, or nothing) → the object and how it came. */
export function readResponseField(
  value: unknown,
  reader: ShapeReader,
): { data: JsonObject; form: ExtractResult['responseForm'] } {
  if (value === undefined || value === null) return { data: {}, form: 'absent' };
  if (typeof value === 'object' && !Array.isArray(value)) return { data: value as JsonObject, form: 'object' };
  if (typeof value !== 'string')
    return reader.fail('response', `is ${reader.describe(value)}, expected a JSON object or a string holding one`);
  const trimmed = value.trim();
  if (trimmed === '') return { data: {}, form: 'absent' };
  const direct = tryParseObject(trimmed);
  if (direct) return { data: direct, form: 'string' };
  const embedded = findEmbeddedObject(trimmed);
  if (embedded) return { data: embedded, form: 'embedded' };
  return reader.fail('response', `is not JSON: ${reader.describe(value)}`);
}

function tryParseObject(text: string): JsonObject | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** JSON inside ``` fences, or the first balanced {...} in prose that parses. */
function findEmbeddedObject(text: string): JsonObject | undefined {
  for (const match of text.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)) {
    const parsed = tryParseObject(match[1]!.trim());
    if (parsed) return parsed;
  }
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    const parsed = tryParseObject(text.slice(start, end + 1));
    if (parsed) return parsed;
  }
  return undefined;
}

/** Index of the brace closing the one at `start`, skipping braces inside JSON strings; -1 if none. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * A value in [0, 1] is read as a fraction (0–1 scale) and multiplied by 100. A score of exactly 1 is thus
 * read as 100%: the 0–1 providers send 1 for certainty, while "1 out of 100" is a vanishingly rare answer.
 */
function readConfidence(value: unknown, reader: ShapeReader): { value: number; scale: '0-1' | '0-100' } | null {
  const n = reader.optionalNumber(value, 'confidence_score');
  if (n === null) return null;
  if (n < 0 || n > 100) reader.fail('confidence_score', `is ${n}, outside 0–100 (and 0–1)`);
  return n <= 1 ? { value: n * 100, scale: '0-1' } : { value: n, scale: '0-100' };
}
