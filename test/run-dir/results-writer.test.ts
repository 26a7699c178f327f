/**
 * ResultsWriter keeps the end of results.jsonl itself instead of asking the file system before each append:
 * lines follow one another, a reopened file (--resume) is appended after what it holds, past a torn last line
 * cut off on open. A writer that starts the file indexes what it writes exactly as indexFinalRecords reads it
 * back, the redacted text included.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexFinalRecords, type CallRecord } from '../../src/run-dir/index.js';
import { ResultsWriter } from '../../src/run-dir/results-writer.js';
import { comparePages, compareRecord } from '../helpers/compare-records.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function resultsFile(content?: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-results-writer-'));
  dirs.push(dir);
  const file = path.join(dir, 'results.jsonl');
  if (content !== undefined) await writeFile(file, content);
  return file;
}

/** A record as far as the writer cares: any JSON value, written as one line. */
function record(id: string, text: string): CallRecord {
  return { document_id: id, text } as unknown as CallRecord;
}

describe('ResultsWriter', () => {
  it('appends each line after the last, multi-byte text included', async () => {
    const file = await resultsFile();
    const writer = ResultsWriter.open(file);
    writer.append(record('a', 'Zürich — 東京 🧾'));
    writer.append(record('b', 'plain'));
    writer.close();
    expect(await readFile(file, 'utf8')).toBe(
      `${JSON.stringify(record('a', 'Zürich — 東京 🧾'))}\n${JSON.stringify(record('b', 'plain'))}\n`,
    );
  });

  it('appends after the lines a reopened file holds, its torn last line cut off', async () => {
    const kept = `${JSON.stringify(record('a', 'ünïcode'))}\n`;
    const file = await resultsFile(`${kept}{"document_id":"b","te`);
    const writer = ResultsWriter.open(file);
    writer.append(record('c', 'after'));
    writer.append(record('d', 'and after'));
    writer.close();
    expect(await readFile(file, 'utf8')).toBe(
      `${kept}${JSON.stringify(record('c', 'after'))}\n${JSON.stringify(record('d', 'and after'))}\n`,
    );
  });

  it('indexes what it writes as a read of the file does: final record per call, redacted, at its bytes', async () => {
    const file = await resultsFile();
    const writer = ResultsWriter.open(file, (text) => text.replaceAll('sk-secret', '[redacted]'), { index: true });
    writer.append(
      compareRecord('a', {
        status: 'failed',
        error: { code: 'X', message: 'key sk-secret refused', retryable: false },
      }),
    );
    writer.append(compareRecord('b', { status: 'ok', result: comparePages('Zürich — 東京 🧾') }));
    writer.append(compareRecord('a', { status: 'ok', result: comparePages('retried') }));
    writer.append(
      compareRecord('c', { status: 'failed', error: { code: 'X', message: 'sk-secret expired', retryable: false } }),
    );
    writer.close();
    const written = writer.writtenIndex();
    const read = await indexFinalRecords(path.dirname(file), 'local');
    expect(written).not.toBeNull();
    expect([...written!.entries()]).toEqual([...read.entries()]);
    expect(JSON.stringify([...written!.values()])).not.toContain('sk-secret');
  });

  it('leaves the index to a read when the file held lines before it (a resumed run)', async () => {
    const file = await resultsFile(
      `${JSON.stringify(compareRecord('a', { status: 'ok', result: comparePages('a') }))}\n`,
    );
    const writer = ResultsWriter.open(file, undefined, { index: true });
    writer.append(compareRecord('b', { status: 'ok', result: comparePages('b') }));
    writer.close();
    expect(writer.writtenIndex()).toBeNull();
  });
});
