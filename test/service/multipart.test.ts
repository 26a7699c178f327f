import { describe, expect, it, vi } from 'vitest';
import { encodeMultipart } from '../../src/service/multipart.js';
import { formEntries } from '../helpers/http-server.js';

// After `draws.count = 0`, the first boundary drawn is all `a` and every later one all `b`: lets a test
// force a collision.
const draws = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, randomUUID: () => (draws.count++ === 0 ? 'a' : 'b').repeat(36) };
});

function parse(encoded: { body: Buffer; contentType: string }): Promise<FormData> {
  return new Response(new Uint8Array(encoded.body), { headers: { 'content-type': encoded.contentType } }).formData();
}

describe('encodeMultipart', () => {
  it('keeps text values byte for byte (LF stays LF, UTF-8 intact) and file bytes exact', async () => {
    const bytes = new Uint8Array(Array.from({ length: 256 }, (_, i) => i));
    const encoded = encodeMultipart([
      { name: 'file', bytes, filename: 'x.png', contentType: 'image/png' },
      { name: 'original_results', value: 'line 1\nline 2\r\nété 📄\n' },
    ]);
    expect(encoded.body.includes(Buffer.from('line 1\nline 2\r\nété 📄\n\r\n--'))).toBe(true);
    const form = await parse(encoded);
    const file = form.get('file') as File;
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    expect(file.type).toBe('image/png');
    expect(form.get('original_results')).toBe('line 1\nline 2\r\nété 📄\n');
  });

  it('escapes quotes and line breaks in file names the way browsers do, so they cannot break the part headers', async () => {
    const encoded = encodeMultipart([
      {
        name: 'file',
        bytes: new Uint8Array([1]),
        filename: 'claim "7"\r\nX-Injected: 1 é.pdf',
        contentType: 'application/pdf\r\nX-Evil: 1',
      },
    ]);
    const head = encoded.body.toString('utf8');
    expect(head).toContain('filename="claim %227%22%0D%0AX-Injected: 1 é.pdf"');
    expect(head).not.toMatch(/\r\nX-(Injected|Evil)/);
    const form = await parse(encoded);
    expect(formEntries(form).map(([name]) => name)).toEqual(['file']);
    expect((form.get('file') as File).name).toBe('claim "7"\r\nX-Injected: 1 é.pdf');
  });

  it('draws a new boundary when the content happens to contain the first one', async () => {
    const first = `----docbench-${'a'.repeat(36)}`;
    draws.count = 0;
    expect(encodeMultipart([{ name: 'note', value: 'plain' }]).contentType).toBe(
      `multipart/form-data; boundary=${first}`,
    );
    draws.count = 0;
    const encoded = encodeMultipart([{ name: 'note', value: `text with ${first} inside` }]);
    expect(encoded.contentType).toBe(`multipart/form-data; boundary=----docbench-${'b'.repeat(36)}`);
    expect((await parse(encoded)).get('note')).toBe(`text with ${first} inside`);
  });

  it('keeps repeated names and their order', async () => {
    const form = await parse(
      encodeMultipart([
        { name: 'a', value: '1' },
        { name: 'b', value: '' },
        { name: 'a', value: '2' },
      ]),
    );
    expect(formEntries(form)).toEqual([
      ['a', '1'],
      ['b', ''],
      ['a', '2'],
    ]);
  });
});
