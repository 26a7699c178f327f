#!/usr/bin/env node
/**
 * A small `command` system for docbench (docs/systems.md): it reads the text layer of a PDF with pdfjs-dist
 * and answers
 *   compare  — the text of each page as markdown lines, pages separated by the page-break marker;
 *   extract  — every scalar field of the schema whose description appears as "Label: value" on a line.
 * It does no OCR: a scanned image (PNG, JPEG, TIFF, or a PDF without text) makes it exit 1 with a message,
 * which docbench records as a failed call. Everything it prints comes from the document.
 *
 * Usage (docbench fills the placeholders): node pdf-text-layer.mjs <operation> <file> [schema.json]
 */
import { readFile } from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const [operation, file, schemaFile] = process.argv.slice(2);
const PAGE_BREAK = process.env.DOCBENCH_PAGE_BREAK ?? '<!-- page-break -->';

/**
 * The text cells of each page: top to bottom, left to right. Items on one baseline (within 2 points) form a
 * row; a gap wider than 12 points splits a row into cells, so two-column layouts do not run together.
 */
async function readPages(path) {
  const bytes = await readFile(path);
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    throw new Error(`${path} is not a PDF: this system reads text layers only (no OCR)`);
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  const pages = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const rows = new Map();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const y = Math.round(item.transform[5] / 2) * 2;
      if (!rows.has(y)) rows.set(y, []);
      rows.get(y).push({ x: item.transform[4], end: item.transform[4] + item.width, text: item.str.trim() });
    }
    const cells = [];
    for (const [, items] of [...rows.entries()].sort((a, b) => b[0] - a[0])) {
      items.sort((a, b) => a.x - b.x);
      let cell = items[0].text;
      for (let i = 1; i < items.length; i++) {
        if (items[i].x - items[i - 1].end > 12) {
          cells.push(cell);
          cell = items[i].text;
        } else cell += ` ${items[i].text}`;
      }
      cells.push(cell.replace(/\s+/g, ' '));
    }
    pages.push(cells);
  }
  await pdf.destroy();
  if (pages.every((lines) => lines.length === 0)) throw new Error(`${path} has no text layer: this system does no OCR`);
  return pages;
}

/** Scalar fields of the schema with the label to look for (their description, else their name). */
function scalarFields(schema, prefix = []) {
  const fields = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.type === 'object') fields.push(...scalarFields(property, [...prefix, name]));
    else if (['string', 'number', 'integer'].includes(property.type))
      fields.push({
        path: [...prefix, name],
        type: property.type,
        label: property.description ?? name.replace(/_/g, ' '),
      });
  }
  return fields;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function extract(pages, schema) {
  const lines = pages.flat();
  const response = {};
  for (const field of scalarFields(schema)) {
    // "Patient account no." matches "Patient Account No.: AC-1"; a trailing dot of the label is optional.
    const label = escapeRegExp(field.label.replace(/\.$/, '')).replace(/\\ /g, '\\s+');
    const pattern = new RegExp(`(?:^|\\s)${label}\\.?\\s*[:#]\\s*(.+)$`, 'i');
    const match = lines.map((line) => pattern.exec(line)).find(Boolean);
    if (!match) continue;
    let value = match[1].trim();
    if (field.type !== 'string') {
      const number = Number(value.replace(/[$,\s]/g, ''));
      if (!Number.isFinite(number)) continue;
      value = number;
    }
    let target = response;
    for (const key of field.path.slice(0, -1)) target = target[key] ??= {};
    target[field.path.at(-1)] = value;
  }
  return response;
}

try {
  const pages = await readPages(file);
  if (operation === 'compare') {
    process.stdout.write(pages.map((lines) => lines.join('\n\n')).join(`\n\n${PAGE_BREAK}\n\n`));
  } else if (operation === 'extract') {
    const schema = JSON.parse(await readFile(schemaFile, 'utf8'));
    process.stdout.write(JSON.stringify({ response: extract(pages, schema), pages_processed: pages.length }));
  } else {
    throw new Error(`operation ${operation} is not supported (extract and compare only)`);
  }
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
