/**
 * `google-docai`: Google Document AI's synchronous process endpoint
 * (POST https://{location}-documentai.googleapis.com/v1/{processor}:process) with a service account.
 *
 * Authentication is the OAuth 2.0 JWT-bearer flow a service account key file describes: a JWT signed RS256
 * with node:crypto and exchanged at the key's own `token_uri` (so a test points it at a fake), the token kept
 * until shortly before it expires. This is what google-auth-library does for a key file; doing it here
 * avoids that dependency tree for one request. A ready token can be given instead (`accessTokenEnv`).
 *
 * The Document's layout → markdown (paragraphs in order, tables from header and body rows), lines →
 * regions (normalized vertices × the page's size) with each line's layout confidence; extract maps the
 * processor's entities onto the schema with the user's `entityMap`.
 */
import { createSign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import {
  type ShapeReader,
  createRedactor,
  type CompareResult,
  type ExtractResult,
  type ProcessResult,
  type SplitResult,
} from '../../service/index.js';
import type { System, SystemCall, SystemKind } from '../types.js';
import { readSecret } from '../providers/secret.js';
import {
  createProviderHttp,
  readCommonError,
  type CallProduct,
  type ProviderCall,
  type ProviderErrorInfo,
} from '../providers/http.js';
import { openDocumentPages, requireBytes, type PageSize } from '../providers/pages.js';
import {
  meanConfidence,
  placeCells,
  positionRowCells,
  relativeToInches,
  renderMarkdown,
  type MarkdownBlock,
} from '../providers/layout.js';
import { mapFields, type FieldSource, type FoundField } from '../providers/field-map.js';
import { fieldsResult, pagesResult, type ReadPage } from '../providers/results.js';
import { captureRaw } from '../providers/raw.js';
import {
  googleDocAiEndpoint,
  googleDocAiIdentity,
  googleDocAiSettings,
  operationsOf,
  type GoogleDocAiOptions,
} from './google-docai-settings.js';

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** A token is renewed this long before it expires, so none expires in flight. */
const TOKEN_MARGIN_S = 300;

export const googleDocAiKind: SystemKind<GoogleDocAiOptions> = {
  ...googleDocAiSettings,
  async create(options, context) {
    const endpoint = googleDocAiEndpoint(options);
    const credentials = options.accessTokenEnv
      ? { token: readSecret(context.env, context.name, 'accessTokenEnv', options.accessTokenEnv) }
      : { key: await readServiceAccount(context.env, context.name, options.credentialsEnv) };
    // Tokens obtained at run time are secrets too: redacted wherever a response could echo them.
    let redactToken = createRedactor([credentials.token]);
    const redact = (text: string) => redactToken(context.redact(text));
    const http = createProviderHttp(context, {
      redact,
      readError: (_status, body) => readGoogleError(body),
      authHint: options.accessTokenEnv
        ? `check the token in ${options.accessTokenEnv}`
        : `check the service account key named by ${options.credentialsEnv} and its Document AI permissions`,
      notFoundMessage: `processor "${options.processor}" not found at ${endpoint}`,
    });
    let token: { value: string; expiresAt: number } | null = credentials.token
      ? { value: credentials.token, expiresAt: Number.POSITIVE_INFINITY }
      : null;
    const accessToken = async (provider: ProviderCall): Promise<string> => {
      if (token && token.expiresAt - TOKEN_MARGIN_S * 1000 > Date.now()) return token.value;
      token = await fetchToken(provider, credentials.key!);
      redactToken = createRedactor([token.value]);
      return token.value;
    };
    const operations = operationsOf(options);
    return {
      name: context.name,
      kind: 'google-docai',
      identity: googleDocAiIdentity(options),
      operations: new Set(operations),
      call: (call) =>
        http.run(call.request.operation, call.signal, async (provider) => {
          const document = requireBytes(call.input, call.request.operation, context.name);
          const bearer = await accessToken(provider);
          const response = await provider.request({
            method: 'POST',
            url: `${endpoint}/v1/${options.processor}:process`,
            headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              rawDocument: { content: Buffer.from(document.bytes).toString('base64'), mimeType: document.contentType },
              skipHumanReview: true,
              ...(options.maxPages ? { processOptions: { fromStart: options.maxPages } } : {}),
            }),
          });
          const reader = provider.reader(response);
          const doc = reader.object(reader.object(response.body, '(body)').document, 'document');
          const pages = readPages(doc, reader);
          provider.usage = { pages: pages.length };
          const result = await toResult(call, doc, pages, reader, options);
          return { result, usage: provider.usage, raw: captureRaw(response.body, redact) } satisfies CallProduct;
        }),
      close: () => http.close(),
    } satisfies System;
  },
};

interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | undefined;
  tokenUri: string;
}

/** The key file named by the variable, validated; errors name the variable and the missing field. */
async function readServiceAccount(
  env: Readonly<Record<string, string | undefined>>,
  system: string,
  variable: string,
): Promise<ServiceAccountKey> {
  const file = readSecret(env, system, 'credentialsEnv', variable);
  const fail = (problem: string): never => {
    throw new UsageError(`the service account key ${variable} names ${problem}`, {
      subject: `systems.${system}.credentialsEnv`,
      code: 'CONFIG_INVALID',
      hint: 'create a key in the Cloud console (IAM → Service accounts → Keys → JSON) and point the variable at it',
    });
  };
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    return fail(`could not be read as JSON (${(error as Error).message.replace(file, '<file>')})`);
  }
  if (parsed.type !== 'service_account')
    fail(`a file whose "type" is ${JSON.stringify(parsed.type)}, expected "service_account"`);
  for (const field of ['client_email', 'private_key'])
    if (typeof parsed[field] !== 'string') fail(`a file without "${field}"`);
  const tokenUri = typeof parsed.token_uri === 'string' ? parsed.token_uri : 'https://oauth2.googleapis.com/token';
  return {
    clientEmail: parsed.client_email as string,
    privateKey: parsed.private_key as string,
    privateKeyId: typeof parsed.private_key_id === 'string' ? parsed.private_key_id : undefined,
    tokenUri,
  };
}

/** RFC 7523 JWT bearer grant: an RS256-signed assertion exchanged for an access token at the key's token_uri. */
async function fetchToken(
  provider: ProviderCall,
  key: ServiceAccountKey,
): Promise<{ value: string; expiresAt: number }> {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT', ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) })}.${encode({ iss: key.clientEmail, scope: SCOPE, aud: key.tokenUri, iat: now, exp: now + 3600 })}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(key.privateKey).toString('base64url');
  const response = await provider.request({
    method: 'POST',
    url: key.tokenUri,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: `${unsigned}.${signature}`,
    }).toString(),
  });
  const reader = provider.reader(response);
  const root = reader.object(response.body, '(token body)');
  const value = reader.string(root.access_token, 'access_token');
  const expiresIn = reader.optionalNumber(root.expires_in, 'expires_in') ?? 3600;
  return { value, expiresAt: Date.now() + expiresIn * 1000 };
}

/** `{"error": {"code": 403, "message", "status": "PERMISSION_DENIED"}}`, or the token endpoint's `{"error": "invalid_grant"}`. */
export function readGoogleError(body: string): ProviderErrorInfo {
  const info = readCommonError(body);
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error === 'string') {
      const description = typeof parsed.error_description === 'string' ? parsed.error_description : undefined;
      return {
        code: parsed.error,
        message: description,
        ...(/^(invalid_grant|invalid_client|unauthorized_client)$/.test(parsed.error) ? { kind: 'auth' as const } : {}),
      };
    }
    const status = (parsed.error as { status?: unknown } | undefined)?.status;
    if (typeof status === 'string')
      return {
        ...info,
        code: status,
        ...(status === 'UNAUTHENTICATED' || status === 'PERMISSION_DENIED' ? { kind: 'auth' as const } : {}),
      };
  } catch {
    // Not JSON: the status alone classifies it.
  }
  return info;
}

interface Anchored {
  text: string;
  confidence: number | null;
  box: { left: number; top: number; right: number; bottom: number } | null;
}

interface DocPage {
  pageNumber: number;
  paragraphs: Anchored[];
  lines: Anchored[];
  tables: { box: Anchored['box']; rows: string[][] }[];
}

function readPages(doc: Record<string, unknown>, reader: ShapeReader): DocPage[] {
  const text = reader.optionalString(doc.text, 'document.text') ?? '';
  return reader.array(doc.pages ?? [], 'document.pages').map((value, p) => {
    const at = `document.pages[${p}]`;
    const page = reader.object(value, at);
    const dimension = reader.optionalObject(page.dimension, `${at}.dimension`);
    const pixels = dimension
      ? {
          width: reader.number(dimension.width, `${at}.dimension.width`),
          height: reader.number(dimension.height, `${at}.dimension.height`),
        }
      : null;
    const anchored = (item: unknown, itemAt: string): Anchored =>
      readLayout(
        reader.object(reader.object(item, itemAt).layout, `${itemAt}.layout`),
        `${itemAt}.layout`,
        text,
        pixels,
        reader,
      );
    const list = (key: string) =>
      (reader.optionalArray(page[key], `${at}.${key}`) ?? []).map((item, i) => anchored(item, `${at}.${key}[${i}]`));
    const tables = (reader.optionalArray(page.tables, `${at}.tables`) ?? []).map((t, i) => {
      const table = reader.object(t, `${at}.tables[${i}]`);
      const rows = (key: string) =>
        (reader.optionalArray(table[key], `${at}.tables[${i}].${key}`) ?? []).map((r, j) =>
          (
            reader.optionalArray(
              reader.object(r, `${at}.tables[${i}].${key}[${j}]`).cells,
              `${at}.tables[${i}].${key}[${j}].cells`,
            ) ?? []
          ).map((c, k) => {
            const cellAt = `${at}.tables[${i}].${key}[${j}].cells[${k}]`;
            const cell = reader.object(c, cellAt);
            // A row lists the cells starting in it; a span of 0 (omitted in JSON) is one row or column.
            const span = (name: string) => reader.optionalNumber(cell[name], `${cellAt}.${name}`) ?? 1;
            return { text: anchored(c, cellAt).text.trim(), rowSpan: span('rowSpan'), columnSpan: span('colSpan') };
          }),
        );
      return {
        box: anchored(table, `${at}.tables[${i}]`).box,
        rows: placeCells(positionRowCells([...rows('headerRows'), ...rows('bodyRows')])),
      };
    });
    return {
      pageNumber: reader.number(page.pageNumber ?? p + 1, `${at}.pageNumber`),
      paragraphs: list('paragraphs'),
      lines: list('lines'),
      tables,
    };
  });
}

/** A Layout: its text (textAnchor segments into document.text), confidence 0–1, and box as page fractions. */
function readLayout(
  layout: Record<string, unknown>,
  at: string,
  text: string,
  pixels: { width: number; height: number } | null,
  reader: ShapeReader,
): Anchored {
  const anchor = reader.optionalObject(layout.textAnchor, `${at}.textAnchor`);
  // int64 fields arrive as strings in JSON, and a zero startIndex is omitted (proto3 JSON mapping).
  const segments = (
    anchor ? (reader.optionalArray(anchor.textSegments, `${at}.textAnchor.textSegments`) ?? []) : []
  ).map((s, i) => {
    const segment = reader.object(s, `${at}.textAnchor.textSegments[${i}]`);
    return text.slice(
      reader.number(segment.startIndex ?? 0, `${at}.textAnchor.textSegments[${i}].startIndex`),
      reader.number(segment.endIndex, `${at}.textAnchor.textSegments[${i}].endIndex`),
    );
  });
  const poly = reader.optionalObject(layout.boundingPoly, `${at}.boundingPoly`);
  const normalized = poly
    ? reader.optionalArray(poly.normalizedVertices, `${at}.boundingPoly.normalizedVertices`)
    : undefined;
  const vertices = poly ? reader.optionalArray(poly.vertices, `${at}.boundingPoly.vertices`) : undefined;
  let points: { x: number; y: number }[] = [];
  if (normalized && normalized.length > 0) {
    points = normalized.map((v, i) => readVertex(v, `${at}.boundingPoly.normalizedVertices[${i}]`, reader));
  } else if (vertices && vertices.length > 0 && pixels) {
    points = vertices
      .map((v, i) => readVertex(v, `${at}.boundingPoly.vertices[${i}]`, reader))
      .map(({ x, y }) => ({ x: x / pixels.width, y: y / pixels.height }));
  }
  const box =
    points.length > 0
      ? {
          left: Math.min(...points.map((p) => p.x)),
          top: Math.min(...points.map((p) => p.y)),
          right: Math.max(...points.map((p) => p.x)),
          bottom: Math.max(...points.map((p) => p.y)),
        }
      : null;
  return { text: segments.join(''), confidence: reader.optionalNumber(layout.confidence, `${at}.confidence`), box };
}

/** A vertex; a zero coordinate is omitted in JSON. */
function readVertex(value: unknown, at: string, reader: ShapeReader): { x: number; y: number } {
  const vertex = reader.object(value, at);
  return { x: reader.number(vertex.x ?? 0, `${at}.x`), y: reader.number(vertex.y ?? 0, `${at}.y`) };
}

async function toResult(
  call: SystemCall,
  doc: Record<string, unknown>,
  pages: readonly DocPage[],
  reader: ShapeReader,
  options: GoogleDocAiOptions,
): Promise<CompareResult | SplitResult | ProcessResult | ExtractResult> {
  const request = call.request;
  if (request.operation === 'extract') {
    const { data, confidences } = mapFields(
      request.schema,
      options.entityMap!,
      readEntities(doc.entities, 'document.entities', reader),
    );
    return fieldsResult(data, confidences, { pagesProcessed: pages.length, scale: '0-1' });
  }
  // Sizes come from the document itself: process needs none.
  const sizes = request.operation === 'process' ? [] : await pageSizes(call, pages);
  return pagesResult(
    request.operation,
    pages.map(
      (page, i): ReadPage => ({
        page: page.pageNumber,
        size: sizes[i] ?? null,
        markdown: () => pageMarkdown(page),
        lines: page.lines.map((line) => ({
          text: line.text.trim(),
          box: line.box && sizes[i] ? relativeToInches(line.box, sizes[i]) : null,
          confidence: line.confidence === null ? null : meanConfidence([line.confidence], 1),
        })),
      }),
    ),
  );
}

/** Paragraphs in order; paragraphs inside a table give way to the table, placed where its first one was. */
function pageMarkdown(page: DocPage): string {
  const blocks: MarkdownBlock[] = [];
  const placed = new Set<number>();
  for (const paragraph of page.paragraphs) {
    const t = page.tables.findIndex((table) => table.box && paragraph.box && centreInside(paragraph.box, table.box));
    if (t === -1) blocks.push({ kind: 'paragraph', text: paragraph.text });
    else if (!placed.has(t)) {
      placed.add(t);
      blocks.push({ kind: 'table', rows: page.tables[t]!.rows });
    }
  }
  for (const [t, table] of page.tables.entries()) if (!placed.has(t)) blocks.push({ kind: 'table', rows: table.rows });
  return renderMarkdown(blocks);
}

function centreInside(inner: NonNullable<Anchored['box']>, outer: NonNullable<Anchored['box']>): boolean {
  const x = (inner.left + inner.right) / 2;
  const y = (inner.top + inner.bottom) / 2;
  return x >= outer.left && x <= outer.right && y >= outer.top && y <= outer.bottom;
}

/** Page sizes in points from the document itself (Document AI gives pixels at an unstated resolution). */
async function pageSizes(call: SystemCall, pages: readonly DocPage[]): Promise<PageSize[]> {
  const document = requireBytes(call.input, call.request.operation, '');
  const opened = await openDocumentPages(document, 72, call.request.operation);
  try {
    const sizes: PageSize[] = [];
    for (const page of pages) sizes.push(await opened.size(Math.min(page.pageNumber, opened.count)));
    return sizes;
  } finally {
    await opened.close();
  }
}

/** Entities by type; an entity's `properties` (a line item's description, amount …) as its sub-fields. */
function readEntities(value: unknown, at: string, reader: ShapeReader): FieldSource {
  const source = new Map<string, FoundField[]>();
  (reader.optionalArray(value, at) ?? []).forEach((e, i) => {
    const entityAt = `${at}[${i}]`;
    const entity = reader.object(e, entityAt);
    const type = reader.string(entity.type, `${entityAt}.type`);
    source.set(type, [...(source.get(type) ?? []), readEntity(entity, entityAt, reader)]);
  });
  return source;
}

/**
 * An entity: `mentionText` as printed; from `normalizedValue`, `moneyValue` (units + nanos) or `floatValue`
 * / `integerValue` as its number, `dateValue` as `YYYY-MM-DD`, `booleanValue`, and `text`.
 */
function readEntity(entity: Record<string, unknown>, at: string, reader: ShapeReader): FoundField {
  const normalized = reader.optionalObject(entity.normalizedValue, `${at}.normalizedValue`) ?? {};
  const n = `${at}.normalizedValue`;
  const money = reader.optionalObject(normalized.moneyValue, `${n}.moneyValue`);
  // int64 fields arrive as strings, and zero fields are omitted (proto3 JSON mapping).
  const amount = money
    ? reader.number(money.units ?? 0, `${n}.moneyValue.units`) +
      reader.number(money.nanos ?? 0, `${n}.moneyValue.nanos`) / 1e9
    : undefined;
  const date = reader.optionalObject(normalized.dateValue, `${n}.dateValue`);
  const day = date
    ? [
        reader.number(date.year ?? 0, `${n}.dateValue.year`),
        reader.number(date.month ?? 0, `${n}.dateValue.month`),
        reader.number(date.day ?? 0, `${n}.dateValue.day`),
      ]
    : undefined;
  const confidence = reader.optionalNumber(entity.confidence, `${at}.confidence`);
  const properties = reader.optionalArray(entity.properties, `${at}.properties`);
  return {
    text: reader.optionalString(entity.mentionText, `${at}.mentionText`),
    number:
      amount ??
      reader.optionalNumber(normalized.floatValue, `${n}.floatValue`) ??
      reader.optionalNumber(normalized.integerValue, `${n}.integerValue`) ??
      undefined,
    // A date without its year (or day) is no date.
    date: day?.every((part) => part > 0)
      ? `${String(day[0]).padStart(4, '0')}-${String(day[1]).padStart(2, '0')}-${String(day[2]).padStart(2, '0')}`
      : undefined,
    boolean: typeof normalized.booleanValue === 'boolean' ? normalized.booleanValue : undefined,
    string: reader.optionalString(normalized.text, `${n}.text`) ?? undefined,
    confidence: confidence === null ? null : confidence * 100,
    ...(properties && properties.length > 0
      ? { properties: readEntities(properties, `${at}.properties`, reader) }
      : {}),
  };
}
