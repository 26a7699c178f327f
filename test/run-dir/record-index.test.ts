/**
 * indexFinalRecords / openRecordReader: the final record of each call without its response, and the full
 * record read back from its byte range — across multi-byte text, CRLF line ends, a retried call and a torn
 * last line — equal to what readFinalRecords reads whole.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  indexFinalRecords,
  openRecordReader,
  readFinalRecords,
  type CallRecord,
  type ReadIssue,
} from '../../src/run-dir/index.js';
import { comparePages, compareRecord } from '../helpers/compare-records.js';

let dir: string;

function line(id: string, status: 'ok' | 'failed', markdown: string): string {
  return JSON.stringify(
    status === 'ok'
      ? compareRecord(id, { status, result: comparePages(markdown) })
      : compareRecord(id, { status, error: { code: 'X', message: 'boom', retryable: false } }),
  );
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docbench-record-index-'));
  const lines = [
    line('a', 'failed', ''),
    line('b', 'ok', 'Zürich — 東京 🧾'),
    `${line('c', 'ok', 'plain')}\r`,
    line('a', 'ok', 'retried: ünïcode'),
  ];
  // The last line is torn (no newline): dropped and reported, as readFinalRecords does.
  await writeFile(path.join(dir, 'results.jsonl'), `${lines.join('\n')}\n${line('d', 'ok', 'torn').slice(0, 40)}`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('indexFinalRecords', () => {
  it('keeps the final record per call without its response, and reads the full one back from its bytes', async () => {
    const issues: ReadIssue[] = [];
    const index = await indexFinalRecords(dir, 'local', issues);
    const whole = await readFinalRecords(dir, 'local');
    expect([...index.keys()]).toEqual(whole.map((r) => r.key));
    expect(issues).toEqual([{ line: 5, problem: expect.stringContaining('torn') }]);
    const reader = openRecordReader(dir, 'local');
    try {
      for (const expected of whole) {
        const entry = index.get(expected.key)!;
        expect(entry.record).not.toHaveProperty('result');
        // The stub: what counting calls, attempts and cost reads; the timings and usage only in the full record.
        const {
          result: _result,
          started_at: _started,
          latency_ms: _latency,
          last_attempt_ms: _last,
          usage: _usage,
          pages: _pages,
          ...stub
        } = expected as CallRecord & { result?: unknown };
        expect(entry.record).toEqual(stub);
        expect(entry.record).not.toHaveProperty('started_at');
        expect(await reader.read(entry.at)).toEqual(expected);
      }
    } finally {
      await reader.close();
    }
    expect(index.get('s|a|compare|-|0')!.record.status).toBe('ok');
  });

  it('names results.jsonl when a record it indexed was cut short since', async () => {
    const cut = await mkdtemp(path.join(os.tmpdir(), 'docbench-record-cut-'));
    try {
      const file = path.join(cut, 'results.jsonl');
      await writeFile(file, `${line('a', 'ok', 'one')}\n${line('b', 'ok', 'two')}\n`);
      const index = await indexFinalRecords(cut, 'local');
      await writeFile(file, `${line('a', 'ok', 'one')}\n${line('b', 'ok', 'two').slice(0, 30)}`);
      const reader = openRecordReader(cut, 'local');
      try {
        await expect(reader.read(index.get('s|b|compare|-|0')!.at)).rejects.toThrow(
          /results\.jsonl\S* is not valid JSON/,
        );
        expect((await reader.read(index.get('s|a|compare|-|0')!.at)).document_id).toBe('a');
      } finally {
        await reader.close();
      }
    } finally {
      await rm(cut, { recursive: true, force: true });
    }
  });
});
