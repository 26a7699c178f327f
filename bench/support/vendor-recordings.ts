/**
 * What a recorded vendor answer says about its document (../shared/recordings, README there): the key-value
 * pairs of Textract's FORMS feature, and every line of text per page in the vendor's reading order, read with
 * docbench's own readers of those answers.
 */
import { ShapeReader } from '../../src/service/index.js';
import { keyValuePairs, ofType, readBlocks } from '../../src/systems/kinds/textract-blocks.js';
import type { VendorPair } from './vendor-fields.js';

function reader(): ShapeReader {
  return new ShapeReader('extract', 'a recorded vendor answer');
}

/** Textract's KEY_VALUE_SET pairs: the key's words, the value's words and the value's check box, if any. */
export function textractPairs(body: unknown): VendorPair[] {
  return keyValuePairs(readBlocks(body, reader())).map(({ keyText, valueText, selected }) => ({
    key: keyText,
    value: valueText,
    selected,
  }));
}

/**
 * Textract's LINE blocks in the answer's order (its reading order), one line each. A synchronous Textract
 * answer is of one page, so this is that page's text.
 */
export function textractLines(body: unknown): string[] {
  const graph = readBlocks(body, reader());
  return [
    ofType(graph, 'LINE')
      .map((line) => line.text ?? '')
      .join('\n'),
  ];
}

/** Azure Document Intelligence's lines per page (`analyzeResult.pages[].lines[].content`), one line each. */
export function azureLines(body: unknown): string[] {
  const shape = reader();
  const root = shape.object(body, '(body)');
  const result = shape.object(root.analyzeResult, 'analyzeResult');
  return shape.array(result.pages, 'analyzeResult.pages').map((page, i) => {
    const at = `analyzeResult.pages[${i}]`;
    return shape
      .array(shape.object(page, at).lines, `${at}.lines`)
      .map((line, j) => shape.string(shape.object(line, `${at}.lines[${j}]`).content, `${at}.lines[${j}].content`))
      .join('\n');
  });
}
