/**
 * `azure-di`: Azure AI Document Intelligence, REST v4 (api-version 2024-11-30). Analyze with `prebuilt-layout`
 * and `outputContentFormat=markdown`, then poll `Operation-Location` (honouring Retry-After) until the
 * operation succeeds. Markdown per page is the page's spans of `analyzeResult.content` (HTML tables turned
 * into pipe tables); regions are `pages[].lines` with their polygons in inches and the mean confidence of
 * their words. extract runs a prebuilt or custom model (`extractModel`) and maps its `documents[0].fields`
 * onto the dataset's schema with the user's `fieldMap`.
 */
import { ServiceError, parseRetryAfter, type ShapeReader, type CompareResult, type ExtractResult, type ProcessResult, type SplitResult } from '../../service/index.js';
import type { Endpoint, JsonObject } from '../../types.js';
import type { System, SystemCall, SystemKind } from '../types.js';
import { readSecret } from '../providers/secret.js';
import { createProviderHttp, readCommonError, type CallProduct, type ProviderCall, type ProviderResponse } from '../providers/http.js';
import { openDocumentPages } from '../providers/pages.js';
import { htmlTablesToMarkdown, meanConfidence, polygonToInches, regionPage, setPath } from '../providers/layout.js';
import { captureRaw } from '../providers/raw.js';
import { azureDiSettings, operationsOf, type AzureDiOptions } from './azure-di-settings.js';

export const azureDiKind: SystemKind<AzureDiOptions> = {
  ...azureDiSettings,
  async create(options, context) {
    const key = readSecret(context.env, context.name, 'apiKeyEnv', options.apiKeyEnv);
    const http = createProviderHttp(context, {
      readError: (_status, body) => {
        const info = readCommonError(body);
        const inner = readInnerCode(body);
        // Free-tier resources answer 403 "Out of call volume quota": an exhausted quota, not a bad key.
        if (/quota/i.test(info.message ?? '')) return { ...info, kind: 'quota' };
        return inner ? { ...info, code: `${info.code ?? ''}/${inner}` } : info;
      },
      authHint: `check the key in ${options.apiKeyEnv} and that it belongs to ${options.endpoint}`,
      notFoundMessage: `model "${options.model}"${options.extractModel ? ` or "${options.extractModel}"` : ''} not found at ${options.endpoint} (or the endpoint or apiVersion is wrong)`,
    });
    const operations = operationsOf(options);
    return {
      name: context.name,
      kind: 'azure-di',
      identity: `azure-di|${options.endpoint}|${options.apiVersion}|${options.model}|${options.extractModel ?? '-'}|${JSON.stringify(options.fieldMap ?? {})}`,
      operations: new Set(operations),
      call: (call) =>
        http.run(call.request.operation, call.signal, async (provider) => {
          const model = call.request.operation === 'extract' ? options.extractModel! : options.model;
          const body = await analyze(provider, call, options, key, model);
          const reader = provider.reader(body.response);
          const analyzeResult = reader.object(reader.object(body.response.body, '(body)').analyzeResult, 'analyzeResult');
          const pages = reader.array(analyzeResult.pages, 'analyzeResult.pages');
          provider.usage = { pages: pages.length };
          const raw = captureRaw(body.response.body, context.redact);
          const result = await toResult(call, analyzeResult, reader, options);
          return { result, usage: provider.usage, raw } satisfies CallProduct;
        }),
      close: () => http.close(),
    } satisfies System;
  },
};


function readInnerCode(body: string): string | undefined {
  try {
    const code = (JSON.parse(body) as { error?: { innererror?: { code?: unknown } } }).error?.innererror?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** POST …:analyze, then GET Operation-Location until `succeeded`. */
async function analyze(provider: ProviderCall, call: SystemCall, options: AzureDiOptions, key: string, model: string): Promise<{ response: ProviderResponse }> {
  const endpoint = provider.endpoint;
  const query = new URLSearchParams({ 'api-version': options.apiVersion, ...(call.request.operation === 'extract' ? {} : { outputContentFormat: 'markdown' }) });
  const source = 'bytes' in call.input ? { base64Source: Buffer.from(call.input.bytes).toString('base64') } : { urlSource: call.input.fileUrl };
  const headers = { 'Ocp-Apim-Subscription-Key': key };
  const started = await provider.request({
    method: 'POST',
    url: `${options.endpoint}/documentintelligence/documentModels/${encodeURIComponent(model)}:analyze?${query}`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(source),
  });
  const location = header(started, 'operation-location');
  if (!location) throw invalid(endpoint, started.status, 'the 202 carries no Operation-Location header');
  // The key goes only to the configured resource: an Operation-Location elsewhere is refused.
  if (new URL(location).origin !== new URL(options.endpoint).origin) throw invalid(endpoint, started.status, `Operation-Location ${new URL(location).origin} is not the endpoint's origin`);
  // The 202's Retry-After says when the first result could be ready; later waits come from each GET.
  let retryAfterMs = retryAfter(started);
  return provider.poll(async () => {
    const response = await provider.request({ method: 'GET', url: location, headers });
    const reader = provider.reader(response);
    const root = reader.object(response.body, '(body)');
    const status = reader.string(root.status, 'status');
    if (status === 'succeeded') return { done: true, value: { response } };
    if (status === 'failed' || status === 'canceled' || status === 'skipped') {
      const error = reader.optionalObject(root.error, 'error');
      const detail = error ? `${String(error.code ?? '')}: ${String(error.message ?? '')}` : status;
      throw new ServiceError('SERVICE_HTTP', `analysis ${status} (${detail.slice(0, 200)})`, { endpoint, status: response.status, serviceCode: typeof error?.code === 'string' ? error.code : undefined, retryable: false, hint: 'the service could not analyse this document' });
    }
    const wait = retryAfter(response) ?? retryAfterMs;
    retryAfterMs = undefined;
    return { done: false, retryAfterMs: wait };
  });
}

function header(response: ProviderResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function retryAfter(response: ProviderResponse): number | undefined {
  return parseRetryAfter(header(response, 'retry-after'));
}

function invalid(endpoint: Endpoint, status: number, problem: string): ServiceError {
  return new ServiceError('SERVICE_RESPONSE_INVALID', problem, { endpoint, status, retryable: false, hint: 'check the endpoint option' });
}

interface AzurePage {
  pageNumber: number;
  width: number;
  height: number;
  unit: string;
  spans: { offset: number; length: number }[];
  lines: { content: string; polygon: number[]; spans: { offset: number; length: number }[] }[];
  words: { polygon: number[]; confidence: number; offset: number }[];
}

function readPages(analyzeResult: Record<string, unknown>, reader: ShapeReader): AzurePage[] {
  const span = (value: unknown, at: string) => {
    const s = reader.object(value, at);
    return { offset: reader.number(s.offset, `${at}.offset`), length: reader.number(s.length, `${at}.length`) };
  };
  const polygon = (value: unknown, at: string) => reader.array(value, at).map((n, i) => reader.number(n, `${at}[${i}]`));
  return reader.array(analyzeResult.pages, 'analyzeResult.pages').map((value, p) => {
    const at = `analyzeResult.pages[${p}]`;
    const page = reader.object(value, at);
    return {
      pageNumber: reader.number(page.pageNumber, `${at}.pageNumber`),
      width: reader.number(page.width, `${at}.width`),
      height: reader.number(page.height, `${at}.height`),
      unit: reader.string(page.unit, `${at}.unit`),
      spans: (reader.optionalArray(page.spans, `${at}.spans`) ?? []).map((s, i) => span(s, `${at}.spans[${i}]`)),
      lines: (reader.optionalArray(page.lines, `${at}.lines`) ?? []).map((l, i) => {
        const line = reader.object(l, `${at}.lines[${i}]`);
        return {
          content: reader.string(line.content, `${at}.lines[${i}].content`),
          polygon: polygon(line.polygon, `${at}.lines[${i}].polygon`),
          spans: (reader.optionalArray(line.spans, `${at}.lines[${i}].spans`) ?? []).map((s, j) => span(s, `${at}.lines[${i}].spans[${j}]`)),
        };
      }),
      words: (reader.optionalArray(page.words, `${at}.words`) ?? []).map((w, i) => {
        const word = reader.object(w, `${at}.words[${i}]`);
        return { polygon: polygon(word.polygon, `${at}.words[${i}].polygon`), confidence: reader.number(word.confidence, `${at}.words[${i}].confidence`), offset: span(word.span, `${at}.words[${i}].span`).offset };
      }),
    };
  });
}

async function toResult(call: SystemCall, analyzeResult: Record<string, unknown>, reader: ShapeReader, options: AzureDiOptions): Promise<CompareResult | SplitResult | ProcessResult | ExtractResult> {
  const request = call.request;
  if (request.operation === 'extract') return toExtract(analyzeResult, reader, options.fieldMap!);
  const content = reader.string(analyzeResult.content, 'analyzeResult.content');
  const pages = readPages(analyzeResult, reader);
  // Page sizes in points: Azure gives inches for PDFs, pixels for images (whose resolution the file holds).
  const pixelsPerInch = await imagePixelsPerInch(call, pages);
  const sizeOf = (page: AzurePage) => {
    const perInch = page.unit === 'inch' ? 1 : pixelsPerInch(page.pageNumber, page.width);
    return { perInch, size: { width: (page.width / perInch) * 72, height: (page.height / perInch) * 72 } };
  };
  if (request.operation === 'compare') {
    return {
      success: true,
      pages: pages.map((page) => ({ content: pageMarkdown(content, page), ...sizeOf(page).size })),
      dashboardUrl: null,
      comparisonId: null,
      failedPages: 0,
      failedPageList: [],
    };
  }
  if (request.operation === 'split') {
    return {
      pages: pages.map((page) => {
        const { perInch, size } = sizeOf(page);
        return regionPage(
          page.pageNumber,
          size,
          page.lines.map((line) => {
            const confidence = meanConfidence(page.words.filter((w) => line.spans.some((s) => w.offset >= s.offset && w.offset < s.offset + s.length)).map((w) => w.confidence), 1);
            return { bounding_box: polygonToInches(line.polygon, perInch), content: line.content, ...(confidence === null ? {} : { confidence }) };
          }),
        );
      }),
    };
  }
  return { status: 'success', documentId: null, text: pages.map((page) => page.lines.map((l) => l.content).join('\n')).join('\n\f'), structuredData: {}, pageCount: pages.length, processingTimeMs: null };
}

/** A page's part of the markdown: its spans, with Azure's page comments turned into text or removed. */
function pageMarkdown(content: string, page: AzurePage): string {
  const text = page.spans.map((s) => content.slice(s.offset, s.offset + s.length)).join('\n');
  return htmlTablesToMarkdown(
    text
      .replace(/<!--\s*PageBreak\s*-->/g, '')
      // PageHeader/PageFooter/PageNumber hold printed text only inside the comment: keep the text.
      .replace(/<!--\s*Page(?:Header|Footer|Number)="((?:[^"\\]|\\.)*)"\s*-->/g, (_, printed: string) => printed.replace(/\\"/g, '"')),
  ).trim();
}

/** For image documents: the file's pixels per inch (its density, else 72), from the local bytes. */
async function imagePixelsPerInch(call: SystemCall, pages: AzurePage[]): Promise<(pageNumber: number, widthPx: number) => number> {
  if (!pages.some((p) => p.unit === 'pixel') || !('bytes' in call.input)) return () => 72;
  const document = await openDocumentPages(call.input, 72, call.request.operation);
  try {
    const sizes = new Map<number, number>();
    for (const page of pages) sizes.set(page.pageNumber, (await document.size(page.pageNumber)).width);
    return (pageNumber, widthPx) => widthPx / ((sizes.get(pageNumber) ?? widthPx) / 72);
  } finally {
    await document.close();
  }
}

/** `documents[0].fields`, mapped by `fieldMap`; confidence is the mean of the mapped fields' confidences. */
function toExtract(analyzeResult: Record<string, unknown>, reader: ShapeReader, fieldMap: Record<string, string>): ExtractResult {
  const documents = reader.optionalArray(analyzeResult.documents, 'analyzeResult.documents') ?? [];
  const fields = documents.length > 0 ? (reader.optionalObject(reader.object(documents[0], 'analyzeResult.documents[0]').fields, 'analyzeResult.documents[0].fields') ?? {}) : {};
  const data: JsonObject = {};
  const confidences: number[] = [];
  for (const [path, fieldName] of Object.entries(fieldMap)) {
    const field = findField(fields, fieldName);
    if (!field) continue;
    const value = fieldValue(field);
    if (value === undefined) continue;
    setPath(data, path, value);
    if (typeof field.confidence === 'number') confidences.push(field.confidence);
  }
  const pages = reader.optionalArray(analyzeResult.pages, 'analyzeResult.pages');
  const confidence = meanConfidence(confidences, 1);
  return { data, responseForm: 'object', method: null, pagesProcessed: pages?.length ?? null, confidence, confidenceScale: confidence === null ? null : '0-1' };
}

type AzureField = Record<string, unknown>;

/** `Customer.Name` looks into the object field `Customer`. */
function findField(fields: Record<string, unknown>, name: string): AzureField | undefined {
  let node: unknown = fields[name.split('.')[0]!];
  for (const part of name.split('.').slice(1)) node = (node as AzureField | undefined)?.valueObject ? ((node as AzureField).valueObject as Record<string, unknown>)[part] : undefined;
  return typeof node === 'object' && node !== null ? (node as AzureField) : undefined;
}

/** A field's typed value (DocumentField: valueString, valueNumber, valueCurrency.amount …), else its content. */
function fieldValue(field: AzureField): JsonObject[string] | undefined {
  switch (field.type) {
    case 'currency':
      return (field.valueCurrency as { amount?: number } | undefined)?.amount ?? undefined;
    case 'address':
      return typeof field.content === 'string' ? field.content : undefined;
    case 'array':
      return Array.isArray(field.valueArray) ? field.valueArray.map((item) => fieldValue(item as AzureField) ?? null) : undefined;
    case 'object': {
      const object = (field.valueObject ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(object).map(([key, child]) => [key, fieldValue(child as AzureField) ?? null]));
    }
    default: {
      const typed = field[`value${String(field.type).charAt(0).toUpperCase()}${String(field.type).slice(1)}`];
      if (typeof typed === 'string' || typeof typed === 'number' || typeof typed === 'boolean') return typed;
      return typeof field.content === 'string' ? field.content : undefined;
    }
  }
}
