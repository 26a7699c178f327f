/**
 * multipart/form-data bodies, byte for byte.
 *
 * Hand-written (a few dozen lines) rather than undici's FormData because WHATWG FormData serialisation
 * rewrites every LF in a text value to CRLF (HTML "converting line breaks" for form entries): the baseline
 * markdown sent to /compare and the customContext sent to /extract would reach the service altered, and a
 * provider that scores against the baseline would score a different text. Encoding once also lets every
 * retry resend the same bytes.
 */
import { randomUUID } from 'node:crypto';

/** A text field, or a file with its name and media type. */
export type MultipartPart =
  | { name: string; value: string }
  | { name: string; bytes: Uint8Array; filename: string; contentType: string };

export interface MultipartBody {
  body: Buffer;
  /** `multipart/form-data; boundary=…`, to send as the request's content-type. */
  contentType: string;
}

const CRLF = Buffer.from('\r\n');

export function encodeMultipart(parts: readonly MultipartPart[]): MultipartBody {
  const contents = parts.map((part) =>
    'bytes' in part
      ? Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.byteLength)
      : Buffer.from(part.value, 'utf8'),
  );
  let boundary = createBoundary();
  // 122 random bits practically never occur in a document, but a collision would corrupt the body: check.
  while (contents.some((content) => content.includes(boundary))) boundary = createBoundary();
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    const disposition = `Content-Disposition: form-data; name="${escapeQuoted(part.name)}"`;
    const headers =
      'bytes' in part
        ? `${disposition}; filename="${escapeQuoted(part.filename)}"\r\nContent-Type: ${part.contentType.replace(/[\r\n]/g, '')}\r\n`
        : `${disposition}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${headers}\r\n`, 'utf8'), contents[i]!, CRLF);
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * 122 random bits. randomUUID draws from a buffer of entropy it refills in batches; randomBytes(16) made a
 * synchronous call into the CSPRNG for every request (a measurable share of the per-call CPU, docs/performance.md).
 */
function createBoundary(): string {
  return `----docbench-${randomUUID()}`;
}

/** Names and filenames inside quotes: the escapes browsers use (HTML multipart/form-data encoding). */
function escapeQuoted(text: string): string {
  return text.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
