/**
 * `azure-di`: Azure AI Document Intelligence, REST v4 (api-version 2024-11-30; v3 versions from 2022-06-30-preview
 * on are served under their own `formrecognizer` path). Analyze with `prebuilt-layout` (v4: with
 * `outputContentFormat=markdown`), then poll `Operation-Location` (honouring Retry-After) until the
 * operation succeeds. Markdown per page comes from azure-di-layout.ts (the markdown `content`, or paragraphs
 * and tables when `content` is plain text); regions are `pages[].lines` with their polygons in inches and the
 * mean confidence of their words. extract runs a prebuilt or custom model (`extractModel`) and maps its
 * `documents[0].fields` onto the dataset's schema with the user's `fieldMap`, then by name (field-map.ts).
 */
import {
  ServiceError,
  parseRetryAfter,
  type ShapeReader,
  type EndpointResult,
  type ExtractResult,
} from '../../service/index.js';
import type { Endpoint, JsonSchema } from '../../types.js';
import type { System, SystemCall, SystemKind } from '../types.js';
import { readSecret } from '../providers/secret.js';
import {
  createProviderHttp,
  readCommonError,
  type CallProduct,
  type ProviderCall,
  type ProviderResponse,
} from '../providers/http.js';
import { openDocumentPages, type PageSize } from '../providers/pages.js';
import { meanConfidence, polygonToInches } from '../providers/layout.js';
import { captureRaw } from '../providers/raw.js';
import { mapFields, type FieldMap, type FieldSource, type FoundField } from '../providers/field-map.js';
import { fieldsResult, pagesResult, type PagesOperation, type ReadPage } from '../providers/results.js';
import {
  layoutMarkdown,
  readLayout,
  type AzureLayout,
  type AzurePage,
  type MarkdownSource,
} from './azure-di-layout.js';
import { azureDiIdentity, azureDiSettings, operationsOf, type AzureDiOptions } from './azure-di-settings.js';

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
      identity: azureDiIdentity(options),
      operations: new Set(operations),
      call: (call) =>
        http.run(call.request.operation, call.signal, async (provider) => {
          const model = call.request.operation === 'extract' ? options.extractModel! : options.model;
          const body = await analyze(provider, call, options, key, model);
          const reader = provider.reader(body.response);
          const analyzeResult = reader.object(
            reader.object(body.response.body, '(body)').analyzeResult,
            'analyzeResult',
          );
          for (const name of ['apiVersion', 'modelId', 'modelVersion']) provider.report(name, analyzeResult[name]);
          const pages = reader.array(analyzeResult.pages, 'analyzeResult.pages');
          provider.usage = { pages: pages.length };
          const request = call.request;
          if (request.operation === 'extract')
            return {
              result: toExtract(analyzeResult, reader, request.schema, options.fieldMap!),
              usage: provider.usage,
              raw: captureRaw(body.response.body, context.redact),
            } satisfies CallProduct;
          const { result, markdownFrom } = await toPagesResult(
            call,
            request.operation,
            readLayout(analyzeResult, reader),
          );
          // Which way the markdown was made is kept beside the answer (docs/providers.md, azure-di).
          const raw = captureRaw(
            markdownFrom ? { markdownFrom, ...reader.object(body.response.body, '(body)') } : body.response.body,
            context.redact,
          );
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
async function analyze(
  provider: ProviderCall,
  call: SystemCall,
  options: AzureDiOptions,
  key: string,
  model: string,
): Promise<{ response: ProviderResponse }> {
  const endpoint = provider.endpoint;
  const v4 = isV4(options.apiVersion);
  // Markdown output exists from v4 on; older versions answer plain text, made into markdown from its structure.
  const query = new URLSearchParams({
    'api-version': options.apiVersion,
    ...(call.request.operation === 'extract' || !v4 ? {} : { outputContentFormat: 'markdown' }),
  });
  const source =
    'bytes' in call.input
      ? { base64Source: Buffer.from(call.input.bytes).toString('base64') }
      : { urlSource: call.input.fileUrl };
  const headers = { 'Ocp-Apim-Subscription-Key': key };
  const started = await provider.request({
    method: 'POST',
    url: `${options.endpoint}/${v4 ? 'documentintelligence' : 'formrecognizer'}/documentModels/${encodeURIComponent(model)}:analyze?${query}`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(source),
  });
  const location = header(started, 'operation-location');
  if (!location) throw invalid(endpoint, started.status, 'the 202 carries no Operation-Location header');
  // The key goes only to the configured resource: an Operation-Location elsewhere is refused.
  if (new URL(location).origin !== new URL(options.endpoint).origin)
    throw invalid(
      endpoint,
      started.status,
      `Operation-Location ${new URL(location).origin} is not the endpoint's origin`,
    );
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
      throw new ServiceError('SERVICE_HTTP', `analysis ${status} (${detail.slice(0, 200)})`, {
        endpoint,
        status: response.status,
        serviceCode: typeof error?.code === 'string' ? error.code : undefined,
        retryable: false,
        hint: 'the service could not analyse this document',
      });
    }
    const wait = retryAfter(response) ?? retryAfterMs;
    retryAfterMs = undefined;
    return { done: false, retryAfterMs: wait };
  });
}

/**
 * Whether the API version is v4 (2023-10-31-preview and later: the `documentintelligence` path and markdown
 * output); v3 versions (2022-06-30-preview … 2023-07-31) are served under `formrecognizer`.
 */
export function isV4(apiVersion: string): boolean {
  return apiVersion.slice(0, 10) >= '2023-10-31';
}

function header(response: ProviderResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function retryAfter(response: ProviderResponse): number | undefined {
  return parseRetryAfter(header(response, 'retry-after'));
}

function invalid(endpoint: Endpoint, status: number, problem: string): ServiceError {
  return new ServiceError('SERVICE_RESPONSE_INVALID', problem, {
    endpoint,
    status,
    retryable: false,
    hint: 'check the endpoint option',
  });
}

/** Page sizes in points: Azure gives inches for PDFs, pixels for images (whose resolution the file holds). */
async function pageSizes(
  call: SystemCall,
  pages: readonly AzurePage[],
): Promise<{ perInch: number; size: PageSize }[]> {
  const pixelsPerInch = await imagePixelsPerInch(call, pages);
  return pages.map((page) => {
    const perInch = page.unit === 'inch' ? 1 : pixelsPerInch(page.pageNumber, page.width);
    return { perInch, size: { width: (page.width / perInch) * 72, height: (page.height / perInch) * 72 } };
  });
}

/** compare, split or process from the layout; compare says which way its markdown was made. */
async function toPagesResult(
  call: SystemCall,
  operation: PagesOperation,
  layout: AzureLayout,
): Promise<{ result: EndpointResult; markdownFrom?: MarkdownSource }> {
  const sizes = operation === 'process' ? [] : await pageSizes(call, layout.pages);
  const markdown = operation === 'compare' ? layoutMarkdown(layout) : null;
  const pages = layout.pages.map(
    (page, i): ReadPage => ({
      page: page.pageNumber,
      size: sizes[i]?.size ?? null,
      markdown: () => markdown?.pages[i] ?? '',
      lines: page.lines.map((line) => ({
        text: line.content,
        box: polygonToInches(line.polygon, sizes[i]?.perInch ?? 1),
        // The line's words, found by their spans; no words, no confidence.
        confidence: meanConfidence(
          page.words
            .filter((w) => line.spans.some((s) => w.offset >= s.offset && w.offset < s.offset + s.length))
            .map((w) => w.confidence),
          1,
        ),
      })),
    }),
  );
  return { result: pagesResult(operation, pages), ...(markdown ? { markdownFrom: markdown.source } : {}) };
}

/** For image documents: the file's pixels per inch (its density, else 72), from the local bytes. */
async function imagePixelsPerInch(
  call: SystemCall,
  pages: readonly AzurePage[],
): Promise<(pageNumber: number, widthPx: number) => number> {
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

/** `documents[0].fields` mapped onto the schema by `fieldMap`, then by name; confidences 0–1. */
function toExtract(
  analyzeResult: Record<string, unknown>,
  reader: ShapeReader,
  schema: JsonSchema,
  fieldMap: FieldMap,
): ExtractResult {
  const documents = reader.optionalArray(analyzeResult.documents, 'analyzeResult.documents') ?? [];
  const fields =
    documents.length > 0
      ? (reader.optionalObject(
          reader.object(documents[0], 'analyzeResult.documents[0]').fields,
          'analyzeResult.documents[0].fields',
        ) ?? {})
      : {};
  const { data, confidences } = mapFields(
    schema,
    fieldMap,
    readFields(fields, 'analyzeResult.documents[0].fields', reader),
  );
  const pages = reader.optionalArray(analyzeResult.pages, 'analyzeResult.pages');
  return fieldsResult(data, confidences, { pagesProcessed: pages?.length ?? null, scale: '0-1' });
}

/** DocumentFields by name (an object field's `valueObject` has the same shape). */
function readFields(fields: Record<string, unknown>, at: string, reader: ShapeReader): FieldSource {
  return new Map(Object.entries(fields).map(([name, value]) => [name, [readField(value, `${at}.${name}`, reader)]]));
}

/**
 * A DocumentField: `content` as printed; `valueCurrency.amount`, `valueNumber`, `valueInteger` as its number;
 * `valueDate`; `valueBoolean` or `valueSelectionMark`; `valueString` (or phone number, country, time) as
 * its text; `valueObject` and `valueArray` as sub-fields and items. Addresses keep their `content`.
 */
function readField(value: unknown, at: string, reader: ShapeReader): FoundField {
  const field = reader.object(value, at);
  const optionalNumber = (key: string) => reader.optionalNumber(field[key], `${at}.${key}`) ?? undefined;
  const optionalString = (key: string) => reader.optionalString(field[key], `${at}.${key}`) ?? undefined;
  const currency = reader.optionalObject(field.valueCurrency, `${at}.valueCurrency`);
  const mark = optionalString('valueSelectionMark');
  const object = reader.optionalObject(field.valueObject, `${at}.valueObject`);
  const array = reader.optionalArray(field.valueArray, `${at}.valueArray`);
  const confidence = reader.optionalNumber(field.confidence, `${at}.confidence`);
  return {
    text: optionalString('content') ?? null,
    number:
      (currency ? (reader.optionalNumber(currency.amount, `${at}.valueCurrency.amount`) ?? undefined) : undefined) ??
      optionalNumber('valueNumber') ??
      optionalNumber('valueInteger'),
    date: optionalString('valueDate'),
    boolean:
      typeof field.valueBoolean === 'boolean'
        ? field.valueBoolean
        : mark === undefined
          ? undefined
          : mark === 'selected',
    string:
      optionalString('valueString') ??
      optionalString('valuePhoneNumber') ??
      optionalString('valueCountryRegion') ??
      optionalString('valueTime'),
    confidence: confidence === null ? null : confidence * 100,
    ...(object ? { properties: readFields(object, `${at}.valueObject`, reader) } : {}),
    ...(array ? { items: array.map((item, i) => readField(item, `${at}.valueArray[${i}]`, reader)) } : {}),
  };
}
