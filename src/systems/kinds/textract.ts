/**
 * `textract`: AWS Textract AnalyzeDocument (synchronous, JSON 1.1 protocol), signed with SigV4 by
 * @smithy/signature-v4 (the AWS SDK's own signer). Credentials and region come from the standard
 * environment variables in the run's environment snapshot. Features LAYOUT, TABLES and FORMS; QUERIES for
 * extract, one query per scalar field of the schema, asked with the field's description.
 *
 * The synchronous API takes one page per request, so a multi-page PDF or TIFF is sent page by page (pages
 * rendered to PNG at `dpi`); a one-page PDF and single images go as they are. Blocks → markdown in layout
 * order (titles, section headers, text, lists, tables from CELL blocks), LINE blocks → regions with the mean
 * confidence of their words (Textract's confidences are already 0–100).
 */
import { UsageError } from '../../errors.js';
import type { ShapeReader, CompareResult, ExtractResult, InchBox, ProcessResult, RegionPage, SplitResult } from '../../service/index.js';
import type { Json, JsonObject, JsonSchema } from '../../types.js';
import type { System, SystemCall, SystemKind } from '../types.js';
import { readSecret } from '../providers/secret.js';
import { createProviderHttp, type CallProduct, type ProviderCall, type ProviderErrorInfo } from '../providers/http.js';
import { openDocumentPages, pageNumbers, requireBytes, type PageSize } from '../providers/pages.js';
import { linesToBlocks, meanConfidence, regionPage, relativeToInches, renderMarkdown, setPath, type MarkdownBlock } from '../providers/layout.js';
import { captureRaw } from '../providers/raw.js';
import { textractSettings, OPERATIONS, CREDENTIAL_ENV, type TextractOptions } from './textract-settings.js';

/** The synchronous API's limit of queries per page (Textract quotas, "Queries per page"). */
const MAX_QUERIES = 15;

export const textractKind: SystemKind<TextractOptions> = {
  ...textractSettings,
  async create(options, context) {
    const region = options.region ?? context.env.AWS_REGION ?? context.env.AWS_DEFAULT_REGION;
    if (!region) {
      throw new UsageError(`systems.${context.name}.region is not set, and neither is AWS_REGION or AWS_DEFAULT_REGION`, { subject: `systems.${context.name}.region`, code: 'CONFIG_INVALID', hint: 'set the region option or export AWS_REGION' });
    }
    const credentials = {
      accessKeyId: readSecret(context.env, context.name, null, CREDENTIAL_ENV.accessKeyId),
      secretAccessKey: readSecret(context.env, context.name, null, CREDENTIAL_ENV.secretAccessKey),
      ...(context.env[CREDENTIAL_ENV.sessionToken] ? { sessionToken: context.env[CREDENTIAL_ENV.sessionToken] } : {}),
    };
    // The signer loads with a textract system, not with this module (CONTRIBUTING.md, Habits).
    const [{ Sha256 }, { SignatureV4 }] = await Promise.all([import('@aws-crypto/sha256-js'), import('@smithy/signature-v4')]);
    const signer = new SignatureV4({ service: 'textract', region, credentials, sha256: Sha256 });
    const endpoint = new URL(options.endpoint ?? `https://textract.${region}.amazonaws.com`);
    const http = createProviderHttp(context, {
      readError: (_status, body) => readAwsError(body),
      authHint: `check ${CREDENTIAL_ENV.accessKeyId}/${CREDENTIAL_ENV.secretAccessKey} (and ${CREDENTIAL_ENV.sessionToken} for temporary credentials) and that they may call textract:AnalyzeDocument in ${region}`,
      notFoundMessage: `no Textract endpoint at ${endpoint.origin} (check region and endpoint)`,
    });
    const analyze = async (provider: ProviderCall, payload: Record<string, unknown>): Promise<unknown> => {
      const body = JSON.stringify(payload);
      const signed = await signer.sign({
        method: 'POST',
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
        path: endpoint.pathname,
        query: {},
        headers: { host: endpoint.host, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'Textract.AnalyzeDocument' },
        body,
      });
      const response = await provider.request({ method: 'POST', url: endpoint.href, headers: signed.headers, body });
      return response.body;
    };
    return {
      name: context.name,
      kind: 'textract',
      identity: `textract|${endpoint.origin}|${region}|${options.features.join('+')}|dpi=${options.dpi}|max=${options.maxPages ?? 'all'}`,
      operations: new Set(OPERATIONS),
      call: (call) =>
        http.run(call.request.operation, call.signal, async (provider) => {
          const request = call.request;
          const queries = request.operation === 'extract' ? schemaQueries(request.schema) : [];
          const features = request.operation === 'extract' ? ['QUERIES'] : options.features;
          const responses: { page: number; size: PageSize; body: unknown }[] = [];
          for await (const page of documentPages(call, options, context.name)) {
            const body = await analyze(provider, { Document: { Bytes: page.bytes.toString('base64') }, FeatureTypes: features, ...(queries.length > 0 ? { QueriesConfig: { Queries: queries.map(({ text, alias }) => ({ Text: text, Alias: alias, Pages: ['*'] })) } } : {}) });
            responses.push({ page: page.page, size: page.size, body });
            provider.usage = { pages: responses.length };
          }
          const pages = responses.map(({ page, size, body }) => ({ page, size, blocks: readBlocks(body, provider.reader({ status: 200, headers: {}, body })) }));
          const result = request.operation === 'extract' ? toExtract(pages, queries) : toResult(request.operation, pages);
          return { result, usage: provider.usage, raw: captureRaw(responses.map(({ page, body }) => ({ page, response: body })), context.redact) } satisfies CallProduct;
        }),
      close: () => http.close(),
    } satisfies System;
  },
};

/** `{"__type": "…#ThrottlingException", "message": …}`, the AWS JSON 1.1 error body. */
export function readAwsError(body: string): ProviderErrorInfo {
  let type: string | undefined;
  let message: string | undefined;
  try {
    const parsed = JSON.parse(body) as { __type?: unknown; message?: unknown; Message?: unknown };
    if (typeof parsed.__type === 'string') type = parsed.__type.split('#').pop();
    const text = parsed.message ?? parsed.Message;
    if (typeof text === 'string') message = text;
  } catch {
    return {};
  }
  if (type === undefined) return { message };
  if (/^(ThrottlingException|ProvisionedThroughputExceededException|LimitExceededException)$/.test(type)) return { code: type, message, kind: 'throttled' };
  if (/^(UnrecognizedClientException|InvalidSignatureException|AccessDeniedException|ExpiredTokenException|IncompleteSignature|MissingAuthenticationToken)/.test(type)) return { code: type, message, kind: 'auth' };
  return { code: type, message };
}

/** What each request sends: a page's bytes and its size in points. */
async function* documentPages(call: SystemCall, options: TextractOptions, system: string): AsyncGenerator<{ page: number; bytes: Buffer; size: PageSize }> {
  const document = requireBytes(call.input, call.request.operation, system);
  const pages = await openDocumentPages(document, options.dpi, call.request.operation);
  try {
    const numbers = pageNumbers(pages.count, options.maxPages);
    // One page as it is (Textract reads PDF, PNG, JPEG, TIFF); several pages one PNG each.
    const whole = pages.count === 1 && /^(application\/pdf|image\/(png|jpeg|tiff))$/.test(document.contentType);
    for (const page of numbers) yield { page, bytes: whole ? Buffer.from(document.bytes) : (await pages.png(page)).data, size: await pages.size(page) };
  } finally {
    await pages.close();
  }
}

interface Block {
  id: string;
  type: string;
  text: string | null;
  confidence: number | null;
  box: { left: number; top: number; right: number; bottom: number } | null;
  children: string[];
  answers: string[];
  rowIndex: number | null;
  columnIndex: number | null;
  alias: string | null;
}

function readBlocks(body: unknown, reader: ShapeReader): Map<string, Block> {
  const root = reader.object(body, '(body)');
  const blocks = new Map<string, Block>();
  reader.array(root.Blocks, 'Blocks').forEach((value, i) => {
    const at = `Blocks[${i}]`;
    const block = reader.object(value, at);
    const geometry = reader.optionalObject(block.Geometry, `${at}.Geometry`);
    const bbox = geometry ? reader.optionalObject(geometry.BoundingBox, `${at}.Geometry.BoundingBox`) : undefined;
    const relation = (type: string) =>
      (reader.optionalArray(block.Relationships, `${at}.Relationships`) ?? []).flatMap((r, j) => {
        const rel = reader.object(r, `${at}.Relationships[${j}]`);
        return rel.Type === type ? reader.array(rel.Ids, `${at}.Relationships[${j}].Ids`).map((id, k) => reader.string(id, `${at}.Relationships[${j}].Ids[${k}]`)) : [];
      });
    const left = bbox ? reader.number(bbox.Left, `${at}.Geometry.BoundingBox.Left`) : 0;
    const top = bbox ? reader.number(bbox.Top, `${at}.Geometry.BoundingBox.Top`) : 0;
    const query = reader.optionalObject(block.Query, `${at}.Query`);
    const id = reader.string(block.Id, `${at}.Id`);
    blocks.set(id, {
      id,
      type: reader.string(block.BlockType, `${at}.BlockType`),
      text: reader.optionalString(block.Text, `${at}.Text`),
      confidence: reader.optionalNumber(block.Confidence, `${at}.Confidence`),
      box: bbox ? { left, top, right: left + reader.number(bbox.Width, `${at}.Geometry.BoundingBox.Width`), bottom: top + reader.number(bbox.Height, `${at}.Geometry.BoundingBox.Height`) } : null,
      children: relation('CHILD'),
      answers: relation('ANSWER'),
      rowIndex: reader.optionalNumber(block.RowIndex, `${at}.RowIndex`),
      columnIndex: reader.optionalNumber(block.ColumnIndex, `${at}.ColumnIndex`),
      alias: query ? reader.optionalString(query.Alias, `${at}.Query.Alias`) : null,
    });
  });
  return blocks;
}

interface PageBlocks {
  page: number;
  size: PageSize;
  blocks: Map<string, Block>;
}

function ofType(blocks: Map<string, Block>, type: string): Block[] {
  return [...blocks.values()].filter((b) => b.type === type);
}

function childText(blocks: Map<string, Block>, block: Block, separator = ' '): string {
  return block.children.map((id) => blocks.get(id)?.text ?? '').filter(Boolean).join(separator);
}

function toResult(operation: 'compare' | 'split' | 'process', pages: readonly PageBlocks[]): CompareResult | SplitResult | ProcessResult {
  if (operation === 'split') {
    return {
      pages: pages.map(({ page, size, blocks }): RegionPage =>
        regionPage(
          page,
          size,
          ofType(blocks, 'LINE').map((line) => {
            const confidence = meanConfidence(line.children.map((id) => blocks.get(id)?.confidence ?? Number.NaN), 100);
            return { bounding_box: boxInches(line, size), content: line.text ?? '', ...(confidence === null ? {} : { confidence }) };
          }),
        ),
      ),
    };
  }
  if (operation === 'compare') {
    return { success: true, pages: pages.map(({ size, blocks }) => ({ content: pageMarkdown(blocks), width: size.width, height: size.height })), dashboardUrl: null, comparisonId: null, failedPages: 0, failedPageList: [] };
  }
  return { status: 'success', documentId: null, text: pages.map(({ blocks }) => ofType(blocks, 'LINE').map((l) => l.text).join('\n')).join('\n\f'), structuredData: {}, pageCount: pages.length, processingTimeMs: null };
}

function boxInches(block: Block, size: PageSize): InchBox {
  return relativeToInches(block.box ?? { left: 0, top: 0, right: 0, bottom: 0 }, size);
}

const LAYOUT_HEADINGS: Record<string, 1 | 2> = { LAYOUT_TITLE: 1, LAYOUT_SECTION_HEADER: 2 };

/** LAYOUT_* blocks in the order Textract returns them (its reading order); plain lines when LAYOUT was not asked. */
function pageMarkdown(blocks: Map<string, Block>): string {
  const layout = [...blocks.values()].filter((b) => b.type.startsWith('LAYOUT_'));
  if (layout.length === 0) {
    return renderMarkdown(linesToBlocks(ofType(blocks, 'LINE').map((line) => ({ words: [{ text: line.text ?? '', x0: line.box?.left ?? 0, x1: line.box?.right ?? 0 }], top: line.box?.top ?? 0, bottom: line.box?.bottom ?? 0, height: 1 }))));
  }
  const tables = ofType(blocks, 'TABLE');
  const inList = new Set(layout.filter((b) => b.type === 'LAYOUT_LIST').flatMap((b) => b.children));
  const out: MarkdownBlock[] = [];
  for (const block of layout) {
    if (inList.has(block.id)) continue;
    const heading = LAYOUT_HEADINGS[block.type];
    if (heading) out.push({ kind: 'heading', level: heading, text: childText(blocks, block) });
    else if (block.type === 'LAYOUT_LIST') for (const id of block.children) out.push({ kind: 'list-item', text: childText(blocks, blocks.get(id)!) });
    else if (block.type === 'LAYOUT_TABLE') {
      const table = tables.find((t) => t.box && block.box && contains(block.box, t.box));
      out.push(table ? { kind: 'table', rows: tableRows(blocks, table) } : { kind: 'paragraph', text: childText(blocks, block) });
    } else out.push({ kind: 'paragraph', text: childText(blocks, block) });
  }
  return renderMarkdown(out);
}

/** Whether the centre of `inner` lies inside `outer`. */
function contains(outer: NonNullable<Block['box']>, inner: NonNullable<Block['box']>): boolean {
  const x = (inner.left + inner.right) / 2;
  const y = (inner.top + inner.bottom) / 2;
  return x >= outer.left && x <= outer.right && y >= outer.top && y <= outer.bottom;
}

function tableRows(blocks: Map<string, Block>, table: Block): string[][] {
  const rows: string[][] = [];
  for (const id of table.children) {
    const cell = blocks.get(id);
    if (cell?.type !== 'CELL' || cell.rowIndex === null || cell.columnIndex === null) continue;
    rows[cell.rowIndex - 1] ??= [];
    rows[cell.rowIndex - 1]![cell.columnIndex - 1] = childText(blocks, cell);
  }
  return Array.from(rows, (row) => Array.from(row ?? [], (text) => text ?? ''));
}

interface SchemaQuery {
  /** The field's dotted path, sent as the query's alias. */
  alias: string;
  text: string;
  type: string;
}

/** One query per scalar field (arrays are not asked: a query has one answer), at most MAX_QUERIES. */
export function schemaQueries(schema: JsonSchema): SchemaQuery[] {
  const queries: SchemaQuery[] = [];
  const walk = (node: Record<string, unknown>, path: string) => {
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      const at = path ? `${path}.${key}` : key;
      const type = Array.isArray(child.type) ? String(child.type.find((t) => t !== 'null')) : String(child.type ?? 'string');
      if (type === 'object') walk(child, at);
      else if (type !== 'array') queries.push({ alias: at, text: questionFor(at, child.description), type });
    }
  };
  walk(schema, '');
  return queries.slice(0, MAX_QUERIES);
}

/** Textract queries are questions: the field's description when it has one, else its name in words. */
function questionFor(path: string, description: unknown): string {
  if (typeof description === 'string' && description.trim() !== '') return `What is the ${description.trim().replace(/[.?]+$/, '')}?`;
  return `What is the ${path.split('.').join(' ').replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}?`;
}

/** Each query's best answer over the pages (highest confidence), coerced to the field's type. */
function toExtract(pages: readonly PageBlocks[], queries: readonly SchemaQuery[]): ExtractResult {
  const best = new Map<string, { text: string; confidence: number }>();
  for (const { blocks } of pages) {
    for (const query of ofType(blocks, 'QUERY')) {
      for (const id of query.answers) {
        const answer = blocks.get(id);
        if (!query.alias || !answer?.text) continue;
        const confidence = answer.confidence ?? 0;
        if ((best.get(query.alias)?.confidence ?? -1) < confidence) best.set(query.alias, { text: answer.text, confidence });
      }
    }
  }
  const data: JsonObject = {};
  for (const query of queries) {
    const answer = best.get(query.alias);
    if (answer) setPath(data, query.alias, coerce(answer.text, query.type));
  }
  const confidence = meanConfidence([...best.values()].map((a) => a.confidence), 100);
  return { data, responseForm: 'object', method: null, pagesProcessed: pages.length, confidence, confidenceScale: confidence === null ? null : '0-100' };
}

/** Query answers are text: numbers lose currency signs and thousands separators; unparseable stays text. */
function coerce(text: string, type: string): Json {
  if (type === 'number' || type === 'integer') {
    const n = Number(text.replace(/[$€£,\s]/g, ''));
    return Number.isFinite(n) ? n : text;
  }
  if (type === 'boolean') {
    if (/^(yes|true|x|checked)$/i.test(text.trim())) return true;
    if (/^(no|false|unchecked)$/i.test(text.trim())) return false;
  }
  return text;
}
