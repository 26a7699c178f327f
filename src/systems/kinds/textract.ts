/**
 * `textract`: AWS Textract AnalyzeDocument or DetectDocumentText (synchronous, JSON 1.1 protocol), signed
 * with SigV4 by @smithy/signature-v4 (the AWS SDK's own signer). Credentials and region come from the
 * standard environment variables in the run's environment snapshot. Features LAYOUT, TABLES and FORMS;
 * QUERIES and FORMS for extract (textract-extract.ts).
 *
 * The synchronous API takes one page per request, so a multi-page PDF or TIFF is sent page by page (pages
 * rendered to PNG at `dpi`); a one-page PDF and single images go as they are. Blocks → markdown by the block
 * graph (textract-markdown.ts), LINE blocks → regions with the mean confidence of their words (Textract's
 * confidences are already 0–100).
 */
import { UsageError } from '../../errors.js';
import type { CompareResult, InchBox, ProcessResult, SplitResult } from '../../service/index.js';
import type { System, SystemCall, SystemContext, SystemKind } from '../types.js';
import { readSecret } from '../providers/secret.js';
import { createProviderHttp, type CallProduct, type ProviderCall, type ProviderErrorInfo } from '../providers/http.js';
import { openDocumentPages, pageNumbers, requireBytes, type PageSize } from '../providers/pages.js';
import { meanConfidence, relativeToInches } from '../providers/layout.js';
import { captureRaw } from '../providers/raw.js';
import { pagesResult, type PagesOperation, type ReadPage } from '../providers/results.js';
import { ofType, readBlocks, related, type Block, type BlockGraph } from './textract-blocks.js';
import { schemaFields, schemaQueries, toExtract } from './textract-extract.js';
import { pageMarkdown } from './textract-markdown.js';
import {
  textractIdentity,
  textractRegion,
  textractSettings,
  operationsOf,
  CREDENTIAL_ENV,
  type TextractOptions,
} from './textract-settings.js';

export const textractKind: SystemKind<TextractOptions> = {
  ...textractSettings,
  async create(options, context) {
    const region = textractRegion(options, context.env);
    if (!region) {
      throw new UsageError(
        `systems.${context.name}.region is not set, and neither is AWS_REGION or AWS_DEFAULT_REGION`,
        {
          subject: `systems.${context.name}.region`,
          code: 'CONFIG_INVALID',
          hint: 'set the region option or export AWS_REGION',
        },
      );
    }
    checkFieldMap(options.fieldMap, context.dataset.schema, context.name);
    const credentials = {
      accessKeyId: readSecret(context.env, context.name, null, CREDENTIAL_ENV.accessKeyId),
      secretAccessKey: readSecret(context.env, context.name, null, CREDENTIAL_ENV.secretAccessKey),
      ...(context.env[CREDENTIAL_ENV.sessionToken] ? { sessionToken: context.env[CREDENTIAL_ENV.sessionToken] } : {}),
    };
    // The signer loads with a textract system, not with this module (CONTRIBUTING.md, Habits).
    const [{ Sha256 }, { SignatureV4 }] = await Promise.all([
      import('@aws-crypto/sha256-js'),
      import('@smithy/signature-v4'),
    ]);
    const signer = new SignatureV4({ service: 'textract', region, credentials, sha256: Sha256 });
    const endpoint = new URL(options.endpoint ?? `https://textract.${region}.amazonaws.com`);
    const http = createProviderHttp(context, {
      readError: (_status, body) => readAwsError(body),
      authHint: `check ${CREDENTIAL_ENV.accessKeyId}/${CREDENTIAL_ENV.secretAccessKey} (and ${CREDENTIAL_ENV.sessionToken} for temporary credentials) and that they may call textract:${options.api} in ${region}`,
      notFoundMessage: `no Textract endpoint at ${endpoint.origin} (check region and endpoint)`,
    });
    const send = async (provider: ProviderCall, target: string, payload: Record<string, unknown>): Promise<unknown> => {
      const body = JSON.stringify(payload);
      const signed = await signer.sign({
        method: 'POST',
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
        path: endpoint.pathname,
        query: {},
        headers: {
          host: endpoint.host,
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `Textract.${target}`,
        },
        body,
      });
      const response = await provider.request({ method: 'POST', url: endpoint.href, headers: signed.headers, body });
      return response.body;
    };
    return {
      name: context.name,
      kind: 'textract',
      identity: textractIdentity(options, region),
      operations: new Set(operationsOf(options)),
      call: (call) =>
        http.run(call.request.operation, call.signal, async (provider) => {
          const request = call.request;
          const [target, payload] = requestFor(request, options, context.name);
          const responses: { page: number; size: PageSize; body: unknown }[] = [];
          for await (const page of documentPages(call, options, context.name)) {
            const body = await send(provider, target, {
              Document: { Bytes: page.bytes.toString('base64') },
              ...payload,
            });
            responses.push({ page: page.page, size: page.size, body });
            reportModelVersion(provider, body);
            provider.usage = { pages: responses.length };
          }
          const pages = responses.map(({ page, size, body }) => ({
            page,
            size,
            blocks: readBlocks(body, provider.reader({ status: 200, headers: {}, body })),
          }));
          const result =
            request.operation === 'extract'
              ? toExtract(
                  pages.map((p) => p.blocks),
                  request.schema,
                  options.fieldMap,
                )
              : toResult(request.operation, pages, options);
          return {
            result,
            usage: provider.usage,
            raw: captureRaw(
              responses.map(({ page, body }) => ({ page, response: body })),
              context.redact,
            ),
          } satisfies CallProduct;
        }),
      close: () => http.close(),
    } satisfies System;
  },
};

/** `AnalyzeDocumentModelVersion` or `DetectDocumentTextModelVersion`: the model that read the page. */
function reportModelVersion(provider: ProviderCall, body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  for (const [name, value] of Object.entries(body)) if (name.endsWith('ModelVersion')) provider.report(name, value);
}

/**
 * The API and its parameters besides the document: extract asks QUERIES (one per scalar field) and FORMS as
 * `extractFeatures` says, QUERIES only when the schema has a field to ask about; the other operations ask
 * `features`, or DetectDocumentText.
 */
function requestFor(
  request: SystemCall['request'],
  options: TextractOptions,
  system: string,
): [target: string, payload: Record<string, unknown>] {
  if (request.operation !== 'extract')
    return options.api === 'DetectDocumentText'
      ? ['DetectDocumentText', {}]
      : ['AnalyzeDocument', { FeatureTypes: options.features }];
  const queries = options.extractFeatures.includes('QUERIES') ? schemaQueries(request.schema) : [];
  const features = options.extractFeatures.filter((f) => f !== 'QUERIES' || queries.length > 0);
  if (features.length === 0)
    throw new UsageError(
      `systems.${system}.extractFeatures has only QUERIES, and the schema has no string, number or boolean field to query`,
      {
        subject: `systems.${system}.extractFeatures`,
        code: 'CONFIG_INVALID',
        hint: 'add FORMS to extractFeatures, or give the schema string, number or boolean fields',
      },
    );
  return [
    'AnalyzeDocument',
    {
      FeatureTypes: features,
      ...(queries.length > 0
        ? { QueriesConfig: { Queries: queries.map(({ text, alias }) => ({ Text: text, Alias: alias, Pages: ['*'] })) } }
        : {}),
    },
  ];
}

/** Every `fieldMap` path must be a scalar field of the dataset's schema (when the dataset has one). */
function checkFieldMap(
  fieldMap: Readonly<Record<string, string>>,
  schema: SystemContext['dataset']['schema'],
  system: string,
): void {
  const paths = new Set(schemaFields(schema).map((f) => f.path));
  if (paths.size === 0) return;
  for (const path of Object.keys(fieldMap)) {
    if (!paths.has(path))
      throw new UsageError(
        `systems.${system}.fieldMap.${path}: no such string, number or boolean field in the dataset's schema`,
        { subject: `systems.${system}.fieldMap`, code: 'CONFIG_INVALID', hint: `map one of: ${[...paths].join(', ')}` },
      );
  }
}

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
  if (/^(ThrottlingException|ProvisionedThroughputExceededException|LimitExceededException)$/.test(type))
    return { code: type, message, kind: 'throttled' };
  if (
    /^(UnrecognizedClientException|InvalidSignatureException|AccessDeniedException|ExpiredTokenException|IncompleteSignature|MissingAuthenticationToken)/.test(
      type,
    )
  )
    return { code: type, message, kind: 'auth' };
  return { code: type, message };
}

/** What each request sends: a page's bytes and its size in points. */
async function* documentPages(
  call: SystemCall,
  options: TextractOptions,
  system: string,
): AsyncGenerator<{ page: number; bytes: Buffer; size: PageSize }> {
  const document = requireBytes(call.input, call.request.operation, system);
  const pages = await openDocumentPages(document, options.dpi, call.request.operation);
  try {
    const numbers = pageNumbers(pages.count, options.maxPages);
    // One page as it is (Textract reads PDF, PNG, JPEG, TIFF); several pages one PNG each.
    const whole = pages.count === 1 && /^(application\/pdf|image\/(png|jpeg|tiff))$/.test(document.contentType);
    for (const page of numbers)
      yield {
        page,
        bytes: whole ? Buffer.from(document.bytes) : (await pages.png(page)).data,
        size: await pages.size(page),
      };
  } finally {
    await pages.close();
  }
}

interface PageBlocks {
  page: number;
  size: PageSize;
  blocks: BlockGraph;
}

function toResult(
  operation: PagesOperation,
  pages: readonly PageBlocks[],
  options: TextractOptions,
): CompareResult | SplitResult | ProcessResult {
  const tablesFromGeometry = options.api === 'DetectDocumentText' || !options.features.includes('TABLES');
  return pagesResult(
    operation,
    pages.map(
      ({ page, size, blocks }): ReadPage => ({
        page,
        size,
        markdown: () => pageMarkdown(blocks, { size, tablesFromGeometry }),
        lines: ofType(blocks, 'LINE').map((line) => ({
          text: line.text ?? '',
          box: boxInches(line, size),
          confidence: meanConfidence(
            related(blocks, line, 'CHILD').map((word) => word.confidence ?? Number.NaN),
            100,
          ),
        })),
      }),
    ),
  );
}

/** A LINE's box in inches, kept inside its page (Textract's boxes can overhang an edge by a little). */
function boxInches(block: Block, size: PageSize): InchBox {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const box = block.box ?? { left: 0, top: 0, right: 0, bottom: 0 };
  return relativeToInches(
    { left: clamp(box.left), top: clamp(box.top), right: clamp(box.right), bottom: clamp(box.bottom) },
    size,
  );
}
