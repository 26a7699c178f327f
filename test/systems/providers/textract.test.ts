/**
 * `textract` against a fake Textract endpoint on 127.0.0.1 speaking the AWS JSON 1.1 protocol:
 * - POST / with `Content-Type: application/x-amz-json-1.1`, `X-Amz-Target: Textract.AnalyzeDocument`, body
 *   `{Document: {Bytes}, FeatureTypes, QueriesConfig: {Queries: [{Text, Alias, Pages}]}}`
 *   (https://docs.aws.amazon.com/textract/latest/dg/API_AnalyzeDocument.html);
 * - a SigV4 `Authorization` header, verified here by re-signing the received request with the same signer
 *   and credentials (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html);
 * - the answer's `Blocks[]` with `BlockType`, `Geometry.BoundingBox` (ratios of the page), `Relationships`
 *   (CHILD, ANSWER), `RowIndex`/`ColumnIndex`, `Query.Alias`, `Confidence` 0–100
 *   (https://docs.aws.amazon.com/textract/latest/dg/API_Block.html);
 * - errors as HTTP 400/500 with `{"__type": …, "message": …}`: ProvisionedThroughputExceededException,
 *   UnrecognizedClientException, InvalidParameterException (the "Errors" section of AnalyzeDocument).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { textractKind } from '../../../src/systems/kinds/textract.js';
import { schemaQueries } from '../../../src/systems/kinds/textract-extract.js';
import type { CompareResult, ExtractResult, SplitResult } from '../../../src/service/types.js';
import { startHttpServer, type RecordedRequest, type TestServer } from '../../helpers/http-server.js';
import {
  compareRequest,
  createSystem,
  drawPdf,
  extractRequest,
  makeCall,
  makeContext,
  sendJson,
  splitRequest,
} from './context.js';
import { parseKindOptions } from '../../../src/systems/config.js';

const ENV = {
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE123456',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  AWS_SESSION_TOKEN: 'session-token-abcdef',
  AWS_REGION: 'eu-west-1',
};
const SECRETS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'];

/** Re-signs what the server received with the same signer and date: equal Authorization = a valid signature. */
async function verifySignature(request: RecordedRequest): Promise<void> {
  const authorization = String(request.headers.authorization);
  expect(authorization).toMatch(
    /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE123456\/\d{8}\/eu-west-1\/textract\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/,
  );
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(';');
  for (const name of ['host', 'content-type', 'x-amz-date', 'x-amz-target', 'x-amz-security-token'])
    expect(signedHeaders).toContain(name);
  const amzDate = String(request.headers['x-amz-date']);
  const signingDate = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({
    service: 'textract',
    region: 'eu-west-1',
    credentials: {
      accessKeyId: ENV.AWS_ACCESS_KEY_ID,
      secretAccessKey: ENV.AWS_SECRET_ACCESS_KEY,
      sessionToken: ENV.AWS_SESSION_TOKEN,
    },
    sha256: Sha256,
  });
  const [hostname, port] = String(request.headers.host).split(':');
  const headers = Object.fromEntries(
    signedHeaders
      .filter((h) => h !== 'x-amz-date' && h !== 'x-amz-security-token')
      .map((h) => [h, String(request.headers[h])]),
  );
  const resigned = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: hostname!,
      port: Number(port),
      path: request.url,
      query: {},
      headers,
      body: request.body.toString('utf8'),
    },
    { signingDate },
  );
  expect(resigned.headers.authorization).toBe(authorization);
}

type Box = [left: number, top: number, width: number, height: number];
let serial = 0;
function block(type: string, box: Box, extra: Record<string, unknown> = {}) {
  const [Left, Top, Width, Height] = box;
  return {
    Id: `b${++serial}`,
    BlockType: type,
    Geometry: { BoundingBox: { Left, Top, Width, Height }, Polygon: [] },
    ...extra,
  };
}
const children = (...blocks: { Id: string }[]) => ({
  Relationships: [{ Type: 'CHILD', Ids: blocks.map((b) => b.Id) }],
});

/** A page: title, a text line, a 2×2 table; LAYOUT blocks in reading order, like Textract's answer. */
function layoutPage() {
  const w = (text: string, box: Box, conf: number) =>
    block('WORD', box, { Text: text, Confidence: conf, TextType: 'PRINTED' });
  const titleWords = [w('Summit', [0.1, 0.05, 0.1, 0.03], 99.5), w('Orthopedics', [0.21, 0.05, 0.2, 0.03], 98.5)];
  const title = block('LINE', [0.1, 0.05, 0.31, 0.03], {
    Text: 'Summit Orthopedics',
    Confidence: 99,
    ...children(...titleWords),
  });
  const nameWords = [
    w('Patient:', [0.1, 0.1, 0.1, 0.02], 97),
    w('Amanda', [0.21, 0.1, 0.1, 0.02], 95),
    w('Patel', [0.32, 0.1, 0.08, 0.02], 93),
  ];
  const name = block('LINE', [0.1, 0.1, 0.3, 0.02], {
    Text: 'Patient: Amanda Patel',
    Confidence: 95,
    ...children(...nameWords),
  });
  const cellWords = [
    w('Code', [0.1, 0.2, 0.1, 0.02], 99),
    w('Charge', [0.4, 0.2, 0.1, 0.02], 99),
    w('99213', [0.1, 0.25, 0.1, 0.02], 99),
    w('125.00', [0.4, 0.25, 0.1, 0.02], 99),
  ];
  const cells = cellWords.map((word, i) =>
    block('CELL', [0.1 + (i % 2) * 0.3, 0.2 + Math.floor(i / 2) * 0.05, 0.3, 0.05], {
      RowIndex: 1 + Math.floor(i / 2),
      ColumnIndex: 1 + (i % 2),
      ...children(word),
    }),
  );
  const table = block('TABLE', [0.1, 0.2, 0.6, 0.1], children(...cells));
  const rowLines = [
    block('LINE', [0.1, 0.2, 0.4, 0.02], { Text: 'Code Charge', ...children(cellWords[0]!, cellWords[1]!) }),
    block('LINE', [0.1, 0.25, 0.4, 0.02], { Text: '99213 125.00', ...children(cellWords[2]!, cellWords[3]!) }),
  ];
  const layout = [
    block('LAYOUT_TITLE', [0.1, 0.05, 0.31, 0.03], children(title)),
    block('LAYOUT_TEXT', [0.1, 0.1, 0.3, 0.02], children(name)),
    block('LAYOUT_TABLE', [0.1, 0.2, 0.6, 0.1], children(...rowLines)),
  ];
  return [
    block('PAGE', [0, 0, 1, 1], children(title, name, ...rowLines)),
    title,
    ...titleWords,
    name,
    ...nameWords,
    ...rowLines,
    ...cellWords,
    table,
    ...cells,
    ...layout,
  ];
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const options = (url: string) => ({ endpoint: url });

describe('textract', () => {
  it('signs each request, sends a multi-page PDF page by page as PNG, and reads layout into markdown', async () => {
    server = await startHttpServer(async (request, response) => {
      await verifySignature(request);
      expect(request.headers['content-type']).toBe('application/x-amz-json-1.1');
      expect(request.headers['x-amz-target']).toBe('Textract.AnalyzeDocument');
      const body = JSON.parse(request.body.toString('utf8')) as { Document: { Bytes: string }; FeatureTypes: string[] };
      expect(body.FeatureTypes).toEqual(['LAYOUT', 'TABLES', 'FORMS']);
      // Several pages: each one a PNG.
      expect(Buffer.from(body.Document.Bytes, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
      sendJson(response, 200, {
        DocumentMetadata: { Pages: 1 },
        Blocks: layoutPage(),
        AnalyzeDocumentModelVersion: '1.0',
      });
    });
    const system = await createSystem(textractKind, 'aws', options(server.url), makeContext('aws', ENV, SECRETS));
    const page = [{ text: 'A', x: 72, y: 72, size: 12 }];
    const outcome = await system.call(makeCall(await drawPdf([page, page]), 'application/pdf', compareRequest));
    await system.close();
    if (!outcome.ok) throw outcome.error;
    expect(server.requests).toHaveLength(2);
    const result = outcome.result as CompareResult;
    expect(result.pages).toHaveLength(2);
    expect(result.pages[0]).toEqual({
      content: '# Summit Orthopedics\n\nPatient: Amanda Patel\n\n| Code | Charge |\n| --- | --- |\n| 99213 | 125.00 |',
      width: 612,
      height: 792,
    });
    expect(outcome.usage).toEqual({ pages: 2 });
    const raw = JSON.stringify(outcome.raw);
    for (const secret of Object.values(ENV).slice(0, 3)) expect(raw).not.toContain(secret);
  });

  it('gives LINE regions in inches (ratios × page size) with the mean confidence of their words', async () => {
    server = await startHttpServer(async (request, response) => {
      // One page: the PDF goes as it is.
      const body = JSON.parse(request.body.toString('utf8')) as { Document: { Bytes: string } };
      expect(Buffer.from(body.Document.Bytes, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
      sendJson(response, 200, { DocumentMetadata: { Pages: 1 }, Blocks: layoutPage() });
    });
    const system = await createSystem(textractKind, 'aws', options(server.url), makeContext('aws', ENV, SECRETS));
    const outcome = await system.call(
      makeCall(await drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }]]), 'application/pdf', splitRequest),
    );
    await system.close();
    if (!outcome.ok) throw outcome.error;
    const [page] = (outcome.result as SplitResult).pages;
    // Left 0.1 × 8.5 in = 0.85; top 0.1 × 11 in = 1.1; right 0.4 × 8.5 = 3.4; bottom 0.12 × 11 = 1.32. (97+95+93)/3 = 95.
    expect(page!.bounding_boxes[1]).toEqual({
      bounding_box: { min_x: 0.85, min_y: 1.1, max_x: 3.4, max_y: 1.32 },
      content: 'Patient: Amanda Patel',
      confidence: 95,
    });
    expect(page!.bounding_boxes[0]!.confidence).toBe(99);
  });

  it("extracts with queries built from the schema, keeping each answer's confidence", async () => {
    const schema = {
      type: 'object',
      properties: {
        patient: { type: 'string', description: 'Patient name' },
        billing: { type: 'object', properties: { total_charges: { type: 'number' } } },
        codes: { type: 'array', items: { type: 'string' } },
      },
    };
    server = await startHttpServer(async (request, response) => {
      await verifySignature(request);
      const body = JSON.parse(request.body.toString('utf8')) as {
        FeatureTypes: string[];
        QueriesConfig: { Queries: { Text: string; Alias: string; Pages: string[] }[] };
      };
      // FORMS too (extractFeatures' default): its key-value pairs fill the fields no query answers.
      expect(body.FeatureTypes).toEqual(['QUERIES', 'FORMS']);
      expect(body.QueriesConfig.Queries).toEqual([
        { Text: 'What is the Patient name?', Alias: 'patient', Pages: ['*'] },
        { Text: 'What is the billing total charges?', Alias: 'billing.total_charges', Pages: ['*'] },
      ]);
      const answer1 = block('QUERY_RESULT', [0.2, 0.1, 0.1, 0.02], { Text: 'Amanda Patel', Confidence: 91 });
      const answer2 = block('QUERY_RESULT', [0.4, 0.3, 0.1, 0.02], { Text: '$1,234.50', Confidence: 83 });
      sendJson(response, 200, {
        DocumentMetadata: { Pages: 1 },
        Blocks: [
          block('QUERY', [0, 0, 0, 0], {
            Query: { Text: 'What is the Patient name?', Alias: 'patient' },
            Relationships: [{ Type: 'ANSWER', Ids: [answer1.Id] }],
          }),
          answer1,
          block('QUERY', [0, 0, 0, 0], {
            Query: { Text: 'What is the billing total charges?', Alias: 'billing.total_charges' },
            Relationships: [{ Type: 'ANSWER', Ids: [answer2.Id] }],
          }),
          answer2,
        ],
      });
    });
    const system = await createSystem(textractKind, 'aws', options(server.url), makeContext('aws', ENV, SECRETS));
    const outcome = await system.call(
      makeCall(await drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }]]), 'application/pdf', extractRequest(schema)),
    );
    await system.close();
    if (!outcome.ok) throw outcome.error;
    expect(outcome.result).toMatchObject({
      data: { patient: 'Amanda Patel', billing: { total_charges: 1234.5 } },
      confidence: 87,
      confidenceScale: '0-100',
    } satisfies Partial<ExtractResult>);
  });

  it('matches FORMS keys to fields by their words: the more specific key first, a parenthesised note and abbreviations ignored', async () => {
    const pair = (key: string, value: string, confidence: number) => {
      const keyWords = key
        .split(' ')
        .map((text) => block('WORD', [0.1, 0.1, 0.05, 0.02], { Text: text, Confidence: confidence }));
      const valueWords = value
        .split(' ')
        .map((text) => block('WORD', [0.3, 0.1, 0.05, 0.02], { Text: text, Confidence: confidence }));
      const valueBlock = block('KEY_VALUE_SET', [0.3, 0.1, 0.2, 0.02], {
        EntityTypes: ['VALUE'],
        Confidence: confidence,
        ...children(...valueWords),
      });
      const keyBlock = block('KEY_VALUE_SET', [0.1, 0.1, 0.2, 0.02], {
        EntityTypes: ['KEY'],
        Confidence: confidence,
        Relationships: [
          { Type: 'VALUE', Ids: [valueBlock.Id] },
          { Type: 'CHILD', Ids: keyWords.map((w) => w.Id) },
        ],
      });
      return [keyBlock, valueBlock, ...keyWords, ...valueWords];
    };
    const blocks = [
      ...pair('Name:', 'Dr. Ruiz', 99),
      ...pair('Patient Name (as on card):', 'Amanda Patel', 80),
      ...pair('Acct #', '00123', 90),
      ...pair('Amt Due', '$1,234.50', 90),
      ...pair('Date', '01/02/2024', 90),
    ];
    server = await startHttpServer((_request, response) =>
      sendJson(response, 200, { DocumentMetadata: { Pages: 1 }, Blocks: blocks }),
    );
    const schema = {
      type: 'object',
      properties: {
        patient: { type: 'object', properties: { name: { type: 'string' } } },
        account_number: { type: 'string' },
        amount_due: { type: 'number' },
        date_of_birth: { type: 'string' },
      },
    };
    const system = await createSystem(
      textractKind,
      'aws',
      { ...options(server.url), extractFeatures: ['FORMS'] },
      makeContext('aws', ENV, SECRETS),
    );
    const outcome = await system.call(
      makeCall(await drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }]]), 'application/pdf', extractRequest(schema)),
    );
    await system.close();
    if (!outcome.ok) throw outcome.error;
    // "Date" alone does not name a date of birth (overlap 0.5); "Name:" is less specific than "Patient Name" for patient.name.
    expect(outcome.result).toMatchObject({
      data: { patient: { name: 'Amanda Patel' }, account_number: '00123', amount_due: 1234.5 },
      confidence: 86.67,
    });
  });

  it('retries throttling reported as HTTP 400, maps a rejected key to SERVICE_AUTH and a bad parameter to a final failure', async () => {
    server = await startHttpServer((_request, response, index) => {
      if (index === 0)
        return sendJson(response, 400, {
          __type: 'ProvisionedThroughputExceededException',
          message: 'Request rate exceeded',
        });
      if (index === 1) return sendJson(response, 200, { DocumentMetadata: { Pages: 1 }, Blocks: [] });
      if (index === 2)
        return sendJson(response, 400, {
          __type: 'UnrecognizedClientException',
          message: 'The security token included in the request is invalid.',
        });
      sendJson(response, 400, {
        __type: 'com.amazonaws.textract#InvalidParameterException',
        message: 'Request has invalid parameters',
      });
    });
    const system = await createSystem(textractKind, 'aws', options(server.url), makeContext('aws', ENV, SECRETS));
    const call = makeCall(await drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }]]), 'application/pdf', splitRequest);
    const throttled = await system.call(call);
    expect(throttled.ok).toBe(true);
    expect(throttled.attempts).toBe(2);
    const rejected = await system.call(call);
    expect(rejected.ok ? null : rejected.error.code).toBe('SERVICE_AUTH');
    const invalid = await system.call(call);
    await system.close();
    if (invalid.ok) throw new Error('expected a failure');
    expect(invalid.error).toMatchObject({ retryable: false, serviceCode: 'InvalidParameterException' });
    expect(invalid.attempts).toBe(1);
  });

  it('needs credentials and a region, naming what is missing', async () => {
    await expect(
      createSystem(textractKind, 'aws', {}, makeContext('aws', { AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y' })),
    ).rejects.toThrow(/systems\.aws\.region is not set/);
    await expect(createSystem(textractKind, 'aws', { region: 'us-east-1' }, makeContext('aws', {}))).rejects.toThrow(
      /AWS_ACCESS_KEY_ID, which systems\.aws reads, is not set/,
    );
    expect(() => parseKindOptions(textractKind, { features: ['TABLES', 'WORDS'] }, 'systems.aws')).toThrow(
      /systems\.aws\.features\[1\]: expected one of LAYOUT, TABLES, FORMS, SIGNATURES, got "WORDS"/,
    );
  });

  it('refuses AnalyzeDocument options with DetectDocumentText, a fieldMap without FORMS, and a fieldMap path the schema lacks', async () => {
    expect(() =>
      parseKindOptions(textractKind, { api: 'DetectDocumentText', features: ['TABLES'] }, 'systems.aws'),
    ).toThrow(/systems\.aws\.features: is for api: AnalyzeDocument/);
    expect(() =>
      parseKindOptions(textractKind, { extractFeatures: ['QUERIES'], fieldMap: { total: 'Total' } }, 'systems.aws'),
    ).toThrow(/systems\.aws\.fieldMap: maps FORMS keys: add FORMS to extractFeatures/);
    expect(
      textractKind.operations(parseKindOptions(textractKind, { api: 'DetectDocumentText' }, 'systems.aws')),
    ).toEqual(['compare', 'split', 'process']);
    const context = makeContext('aws', ENV, SECRETS);
    const schemaContext = {
      ...context,
      dataset: {
        ...context.dataset,
        schema: {
          type: 'object',
          properties: { billing: { type: 'object', properties: { total: { type: 'number' } } } },
        },
      },
    };
    await expect(
      createSystem(textractKind, 'aws', { fieldMap: { 'billing.totl': 'Total' } }, schemaContext),
    ).rejects.toThrow(
      /systems\.aws\.fieldMap\.billing\.totl: no such string, number or boolean field in the dataset's schema/,
    );
    await (await createSystem(textractKind, 'aws', { fieldMap: { 'billing.total': 'Total' } }, schemaContext)).close();
  });

  it('sends only FORMS for a schema with nothing to query, and fails the call without a request when QUERIES is all it may ask', async () => {
    server = await startHttpServer((_request, response) =>
      sendJson(response, 200, { DocumentMetadata: { Pages: 1 }, Blocks: [] }),
    );
    const schema = { type: 'object', properties: { codes: { type: 'array', items: { type: 'string' } } } };
    const call = makeCall(
      await drawPdf([[{ text: 'A', x: 72, y: 72, size: 12 }]]),
      'application/pdf',
      extractRequest(schema),
    );
    const forms = await createSystem(textractKind, 'aws', options(server.url), makeContext('aws', ENV, SECRETS));
    expect((await forms.call(call)).ok).toBe(true);
    await forms.close();
    expect(JSON.parse(server.requests[0]!.body.toString('utf8'))).toEqual({
      Document: { Bytes: expect.any(String) },
      FeatureTypes: ['FORMS'],
    });
    const queriesOnly = await createSystem(
      textractKind,
      'aws',
      { ...options(server.url), extractFeatures: ['QUERIES'] },
      makeContext('aws', ENV, SECRETS),
    );
    const outcome = await queriesOnly.call(call);
    await queriesOnly.close();
    expect(outcome.ok ? null : outcome.error.message).toMatch(
      /systems\.aws\.extractFeatures has only QUERIES, and the schema has no string, number or boolean field to query/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('asks at most 15 queries (the synchronous limit)', () => {
    const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, { type: 'string' }]));
    expect(schemaQueries({ type: 'object', properties })).toHaveLength(15);
  });
});
