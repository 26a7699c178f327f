/**
 * `mistral-ocr`: Mistral's OCR endpoint (POST {baseUrl}/ocr). The document goes as a base64 `data:` URL (or
 * its own URL); the answer is markdown per page with the page's pixel dimensions and dpi. extract asks for a
 * document annotation in the dataset's schema (`document_annotation_format`, strict json_schema, mapped back
 * as for `openai`). Mistral OCR gives no confidence and no text boxes: no confidence, no split.
 */
import {
  type CompareResult,
  type ExtractResult,
  type ProcessResult,
  type ShapeReader,
  readResponseField,
  type DocumentInput,
} from '../../service/index.js';
import type { Endpoint } from '../../types.js';
import type { System, SystemKind } from '../types.js';
import { openDocumentPages } from '../providers/pages.js';
import { readSecret } from '../providers/secret.js';
import { createProviderHttp, readCommonError, type CallProduct } from '../providers/http.js';
import { htmlTablesToMarkdown } from '../providers/layout.js';
import { captureRaw } from '../providers/raw.js';
import { compareResult, processResult } from '../providers/results.js';
import { fromStrictAnswer, toStrictSchema } from '../providers/strict-schema.js';
import { mistralOcrIdentity, mistralOcrSettings, OPERATIONS, type MistralOcrOptions } from './mistral-ocr-settings.js';

export const mistralOcrKind: SystemKind<MistralOcrOptions> = {
  ...mistralOcrSettings,
  async create(options, context) {
    const key = readSecret(context.env, context.name, 'apiKeyEnv', options.apiKeyEnv);
    const http = createProviderHttp(context, {
      readError: (_status, body) => readCommonError(body),
      authHint: `check the key in ${options.apiKeyEnv}`,
      notFoundMessage: `model "${options.model}" is not served at ${options.baseUrl} (or the base URL is wrong)`,
    });
    return {
      name: context.name,
      kind: 'mistral-ocr',
      identity: mistralOcrIdentity(options),
      operations: new Set(OPERATIONS),
      call: (call) =>
        http.run(call.request.operation, call.signal, async (provider) => {
          const request = call.request;
          const strict = request.operation === 'extract' ? toStrictSchema(request.schema) : null;
          const document =
            'bytes' in call.input
              ? call.input.contentType.startsWith('image/')
                ? { type: 'image_url', image_url: dataUrl(call.input.contentType, call.input.bytes) }
                : { type: 'document_url', document_url: dataUrl(call.input.contentType, call.input.bytes) }
              : { type: 'document_url', document_url: call.input.fileUrl };
          const body = {
            model: options.model,
            document,
            include_image_base64: false,
            ...(options.maxPages ? { pages: await firstPages(call.input, options.maxPages, request.operation) } : {}),
            ...(strict
              ? {
                  document_annotation_format: {
                    type: 'json_schema',
                    json_schema: { name: 'extraction', schema: strict.schema, strict: true },
                  },
                }
              : {}),
          };
          const response = await provider.request({
            method: 'POST',
            url: `${options.baseUrl}/ocr`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify(body),
          });
          const reader = provider.reader(response);
          const root = reader.object(response.body, '(body)');
          provider.report('model', root.model);
          const pages = readPages(root, reader);
          const usageInfo = reader.optionalObject(root.usage_info, 'usage_info');
          const processed = usageInfo
            ? reader.optionalNumber(usageInfo.pages_processed, 'usage_info.pages_processed')
            : null;
          provider.usage = { pages: processed ?? pages.length };
          let result: CompareResult | ExtractResult | ProcessResult;
          if (request.operation === 'extract') {
            const annotation = reader.optionalString(root.document_annotation, 'document_annotation');
            const { data, form } = readResponseField(annotation, reader);
            result = {
              data: form === 'absent' ? data : fromStrictAnswer(data, request.schema, strict!.wrapped),
              responseForm: form,
              method: null,
              pagesProcessed: pages.length,
              confidence: null,
              confidenceScale: null,
            };
          } else if (request.operation === 'compare') {
            result = compareResult(pages.map(({ markdown, width, height }) => ({ content: markdown, width, height })));
          } else {
            result = processResult(pages.map((p) => p.markdown));
          }
          return {
            result,
            usage: provider.usage,
            raw: captureRaw(response.body, context.redact),
          } satisfies CallProduct;
        }),
      close: () => http.close(),
    } satisfies System;
  },
};

/** 0-based indices of the first `maxPages` pages (fewer when the document is shorter: counted locally). */
async function firstPages(input: DocumentInput, maxPages: number, endpoint: Endpoint): Promise<number[]> {
  let count = maxPages;
  if ('bytes' in input) {
    const pages = await openDocumentPages(input, 72, endpoint);
    count = Math.min(maxPages, pages.count);
    await pages.close();
  }
  return Array.from({ length: count }, (_, i) => i);
}

function dataUrl(contentType: string, bytes: Uint8Array): string {
  return `data:${contentType};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** `pages[].{index, markdown, dimensions: {dpi, width, height}}`: markdown without image links, sizes in points. */
function readPages(
  root: Record<string, unknown>,
  reader: ShapeReader,
): { markdown: string; width: number | null; height: number | null }[] {
  return reader.array(root.pages, 'pages').map((value, i) => {
    const page = reader.object(value, `pages[${i}]`);
    const dimensions = reader.optionalObject(page.dimensions, `pages[${i}].dimensions`);
    const dpi = dimensions ? reader.number(dimensions.dpi, `pages[${i}].dimensions.dpi`) : null;
    const toPoints = (px: unknown, at: string) => (dimensions && dpi ? (reader.number(px, at) * 72) / dpi : null);
    const markdown = reader
      .string(page.markdown, `pages[${i}].markdown`)
      // Extracted images are referenced as ![img-0.jpeg](img-0.jpeg): no text of the page.
      .replace(/^!\[[^\]]*\]\([^)]*\)\s*$/gm, '')
      .replace(/\n{3,}/g, '\n\n');
    return {
      markdown: htmlTablesToMarkdown(markdown).trim(),
      width: toPoints(dimensions?.width, `pages[${i}].dimensions.width`),
      height: toPoints(dimensions?.height, `pages[${i}].dimensions.height`),
    };
  });
}
