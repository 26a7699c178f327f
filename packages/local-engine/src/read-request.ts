/**
 * Request reading with limits: the body is counted while it arrives (413 as soon as it is too large), then
 * parsed as multipart by the web-standard Request.formData() (undici, built into Node 20). Documents come
 * from a file part or from fileUrl (http/https only, size and time limited).
 */
import type { IncomingMessage } from 'node:http';
// undici's own Request/fetch (the same code as Node's globals) for types that match Node streams and buffers.
import { Agent, fetch, Request, type FormData, type Response } from 'undici';
import { detectFormat, SUPPORTED_FORMATS, type DocumentFormat } from './document-format.js';
import { guardedLookup, refusedRange, refuseLiteral, RefusedAddressError, type AddressRule } from './file-url-guard.js';
import { HttpProblem } from './http-problem.js';

/** Parts allowed in one request, and bytes of one text part: bounds on what a client can make us hold. */
const MAX_PARTS = 32;
const MAX_TEXT_PART_BYTES = 16 * 1024 * 1024;
/** Room for the text parts and multipart framing on top of the document itself. */
const BODY_OVERHEAD_BYTES = MAX_TEXT_PART_BYTES + 1024 * 1024;

/** A document to analyse. */
export interface InputDocument {
  bytes: Uint8Array;
  format: DocumentFormat;
  /** The upload's file name or the URL's last segment. */
  filename: string;
}

export interface ParsedForm {
  text(name: string): string | undefined;
  files: { name: string; filename: string; bytes: Uint8Array }[];
}

function tooLarge(limit: number, what: string): HttpProblem {
  return new HttpProblem(413, 'file_too_large', `${what} is larger than the limit of ${limit} bytes`, {
    max_bytes: limit,
  });
}

/**
 * Reads the whole body, failing with 413 as soon as it passes `limit` bytes. Listens to the stream rather
 * than iterating it: leaving a `for await` early destroys the request and its socket, and then no 413 can
 * be sent (a chunked upload over the limit would get a dropped connection instead of an answer).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit, 'The request body'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        stop();
        req.pause();
        reject(tooLarge(limit, 'The request body'));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, total));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Reads and parses a multipart/form-data request. */
export async function readForm(req: IncomingMessage, maxUploadBytes: number): Promise<ParsedForm> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    throw new HttpProblem(400, 'invalid_request', 'The request body must be multipart/form-data with a boundary', {
      content_type: type || null,
    });
  }
  const body = await readBody(req, maxUploadBytes + BODY_OVERHEAD_BYTES);
  let form: FormData;
  try {
    form = await new Request('http://local/', { method: 'POST', headers: { 'content-type': type }, body }).formData();
  } catch (error) {
    throw new HttpProblem(
      400,
      'invalid_multipart',
      `The multipart body could not be parsed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const entries = [...form.entries()];
  if (entries.length > MAX_PARTS)
    throw new HttpProblem(
      400,
      'too_many_parts',
      `The request has ${entries.length} parts; at most ${MAX_PARTS} are accepted`,
    );
  const texts = new Map<string, string>();
  const files: ParsedForm['files'] = [];
  for (const [name, value] of entries) {
    if (typeof value === 'string') {
      if (Buffer.byteLength(value) > MAX_TEXT_PART_BYTES)
        throw new HttpProblem(413, 'part_too_large', `The part "${name}" is larger than ${MAX_TEXT_PART_BYTES} bytes`);
      texts.set(name, value);
    } else {
      if (value.size > maxUploadBytes) throw tooLarge(maxUploadBytes, `The file part "${name}"`);
      files.push({ name, filename: value.name || name, bytes: new Uint8Array(await value.arrayBuffer()) });
    }
  }
  return { text: (name) => texts.get(name), files };
}

function toDocument(bytes: Uint8Array, filename: string): InputDocument {
  const format = detectFormat(bytes);
  if (!format) {
    throw new HttpProblem(
      415,
      'invalid_file_format',
      `"${filename}" is not a supported document (PDF, PNG, JPEG or TIFF, detected from its content)`,
      {
        supported_formats: [...SUPPORTED_FORMATS],
      },
    );
  }
  return { bytes, format, filename };
}

/** Redirects followed from a fileUrl, each checked like the first URL. */
const MAX_REDIRECTS = 5;

function parseFileUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new HttpProblem(
      400,
      'invalid_file_url',
      `fileUrl ${base ? 'redirects to' : 'is'} not a valid URL: ${raw.slice(0, 200)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HttpProblem(
      400,
      'invalid_file_url',
      `fileUrl must use http or https, not ${url.protocol.replace(':', '')}${base ? ` (a redirect led to ${url.href.slice(0, 200)})` : ''}`,
    );
  }
  return url;
}

/** The refusal inside a failed fetch's causes (undici wraps the connection's error), if that is why it failed. */
function refusalIn(error: unknown): HttpProblem | null {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if (cause instanceof RefusedAddressError) return cause.problem;
  return null;
}

/** Per address rule, the connections whose DNS lookup applies it (made on the first download under it). */
const guardedAgents = new WeakMap<AddressRule, Agent>();

function guardedAgent(rule: AddressRule): Agent {
  let agent = guardedAgents.get(rule);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(rule) } });
    guardedAgents.set(rule, agent);
  }
  return agent;
}

/**
 * Downloads a fileUrl: http(s) only, at most `limit` bytes, within `timeoutMs` (redirects included). With a
 * `rule` (`refusedRange` for a service bound beyond loopback, file-url-guard.ts) every hop must
 * reach an address the rule allows, or the answer is a 400 naming the rule; without one, any address.
 */
export async function fetchFileUrl(
  raw: string,
  limit: number,
  timeoutMs: number,
  rule: AddressRule | null = null,
): Promise<InputDocument> {
  let url = parseFileUrl(raw);
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  for (let hop = 0; ; hop++) {
    const literal = rule ? refuseLiteral(url, rule) : null;
    if (literal) throw literal;
    try {
      // Beyond loopback redirects come back unfollowed, for the loop to check the next hop.
      response = rule
        ? await fetch(url, { signal, redirect: 'manual', dispatcher: guardedAgent(rule) })
        : await fetch(url, { signal, redirect: 'follow' });
    } catch (error) {
      const refused = refusalIn(error);
      if (refused) throw refused;
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new HttpProblem(
        timedOut ? 504 : 502,
        timedOut ? 'file_url_timeout' : 'file_url_unreachable',
        timedOut
          ? `fileUrl did not answer within ${timeoutMs} ms`
          : `fileUrl could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // Only unfollowed redirects reach here (with a rule); the global fetch follows its own.
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) break;
    await response.body?.cancel();
    if (hop === MAX_REDIRECTS)
      throw new HttpProblem(502, 'file_url_unreachable', `fileUrl redirected more than ${MAX_REDIRECTS} times`);
    url = parseFileUrl(location, url);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new HttpProblem(502, 'file_url_unreachable', `fileUrl answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body.cancel();
    throw tooLarge(limit, 'The document at fileUrl');
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body) {
      total += chunk.length;
      if (total > limit) throw tooLarge(limit, 'The document at fileUrl');
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    throw new HttpProblem(504, 'file_url_timeout', `fileUrl download failed or timed out after ${timeoutMs} ms`);
  }
  const filename = decodeURIComponent(url.pathname.split('/').pop() || 'document');
  return toDocument(Buffer.concat(chunks, total), filename);
}

/**
 * The documents of a request: `file`, or the indexed parts `0.file`, `1.file`… (docs/service-interface.md §4.2), or
 * `fileUrl`. At least one is required.
 */
export async function readDocuments(
  form: ParsedForm,
  options: { maxUploadBytes: number; fileUrlTimeoutMs: number; publicFileUrlsOnly: boolean },
): Promise<InputDocument[]> {
  const plain = form.files.filter((f) => f.name === 'file');
  const indexed = form.files
    .filter((f) => /^\d+\.file$/.test(f.name))
    .sort((a, b) => Number.parseInt(a.name, 10) - Number.parseInt(b.name, 10));
  const uploads = plain.length > 0 ? plain : indexed;
  if (uploads.length > 0) return uploads.map((f) => toDocument(f.bytes, f.filename));
  const fileUrl = form.text('fileUrl')?.trim();
  if (fileUrl)
    return [
      await fetchFileUrl(
        fileUrl,
        options.maxUploadBytes,
        options.fileUrlTimeoutMs,
        options.publicFileUrlsOnly ? refusedRange : null,
      ),
    ];
  if (form.text('file') !== undefined)
    throw new HttpProblem(400, 'missing_file', 'The "file" part must be a file upload, not a text field');
  throw new HttpProblem(
    400,
    'missing_file',
    'Send the document as a "file" part (or "0.file") or give a "fileUrl" part',
  );
}

/** Reads a boolean part sent as text ("true"/"false", also 1/0, yes/no). */
export function readBooleanPart(form: ParsedForm, name: string, fallback = false): boolean {
  const raw = form.text(name);
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new HttpProblem(
    400,
    'invalid_parameter',
    `The part "${name}" must be true or false, got "${raw.slice(0, 40)}"`,
  );
}
