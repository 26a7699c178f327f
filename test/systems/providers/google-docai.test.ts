/**
 * `google-docai` against a fake Google on 127.0.0.1:
 * - the OAuth 2.0 token endpoint of a service account key (`token_uri`), receiving the JWT-bearer grant
 *   (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<RS256 JWT>`), whose signature the fake
 *   verifies with the key's public half (https://developers.google.com/identity/protocols/oauth2/service-account,
 *   "Preparing to make an authorized API call" → HTTP/REST);
 * - POST /v1/{processor}:process with `Authorization: Bearer`, body `{rawDocument: {content, mimeType}}`
 *   (https://cloud.google.com/document-ai/docs/reference/rest/v1/projects.locations.processors/process),
 *   answering a Document (https://cloud.google.com/document-ai/docs/reference/rest/v1/Document): `text`,
 *   `pages[].{pageNumber, dimension, paragraphs, lines, tables}` with `layout.textAnchor.textSegments`
 *   (int64 as strings, a zero startIndex omitted), `layout.boundingPoly.normalizedVertices`, `layout.confidence`,
 *   and `entities[].{type, mentionText, normalizedValue, confidence}`;
 * - errors `{"error": {"code", "message", "status"}}` (https://cloud.google.com/apis/design/errors):
 *   404 NOT_FOUND, 429 RESOURCE_EXHAUSTED; the token endpoint's 400 `{"error": "invalid_grant"}`.
 */
import { generateKeyPairSync, createVerify } from 'node:crypto';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { googleDocAiKind } from '../../../src/systems/kinds/google-docai.js';
import type { CompareResult, ExtractResult, SplitResult } from '../../../src/service/types.js';
import { startHttpServer, type RecordedRequest, type TestServer } from '../../helpers/http-server.js';
import {
  ONE_PAGE,
  compareRequest,
  createSystem,
  extractRequest,
  makeCall,
  makeContext,
  sendJson,
  splitRequest,
} from './context.js';
import { parseKindOptions } from '../../../src/systems/config.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const PROCESSOR = 'projects/demo/locations/eu/processors/abc123';
const TOKEN = 'ya29.fake-access-token-0123456789';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docbench-docai-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function keyFile(tokenUri: string): Promise<string> {
  const file = path.join(dir, `key-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(
    file,
    JSON.stringify({
      type: 'service_account',
      project_id: 'demo',
      private_key_id: 'kid-1',
      private_key: privateKey,
      client_email: 'bench@demo.iam.gserviceaccount.com',
      token_uri: tokenUri,
    }),
  );
  return file;
}

/** The token endpoint's checks: the grant type, the JWT's claims and its RS256 signature. */
function checkGrant(request: RecordedRequest, tokenUri: string): void {
  const form = new URLSearchParams(request.body.toString('utf8'));
  expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
  const [header, claims, signature] = form.get('assertion')!.split('.');
  expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' });
  const payload = JSON.parse(Buffer.from(claims!, 'base64url').toString()) as Record<string, unknown>;
  expect(payload).toMatchObject({
    iss: 'bench@demo.iam.gserviceaccount.com',
    aud: tokenUri,
    scope: 'https://www.googleapis.com/auth/cloud-platform',
  });
  expect(Number(payload.exp) - Number(payload.iat)).toBe(3600);
  expect(
    createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKey, Buffer.from(signature!, 'base64url')),
  ).toBe(true);
}

const TEXT = 'Summit Orthopedics\nPatient: Amanda Patel\nCode\nCharge\n99213\n125.00\n';
const anchor = (part: string) => {
  const start = TEXT.indexOf(part);
  // proto3 JSON: int64 as strings, and a zero startIndex is left out.
  return {
    textSegments: [{ ...(start === 0 ? {} : { startIndex: String(start) }), endIndex: String(start + part.length) }],
  };
};
const layout = (part: string, box: [number, number, number, number], confidence = 0.9) => ({
  textAnchor: anchor(part),
  confidence,
  boundingPoly: {
    normalizedVertices: [
      { x: box[0], y: box[1] },
      { x: box[2], y: box[1] },
      { x: box[2], y: box[3] },
      { x: box[0], y: box[3] },
    ],
  },
  orientation: 'PAGE_UP',
});
const cell = (part: string, box: [number, number, number, number]) => ({
  layout: layout(part, box),
  rowSpan: 1,
  colSpan: 1,
});

const DOCUMENT = {
  mimeType: 'application/pdf',
  text: TEXT,
  pages: [
    {
      pageNumber: 1,
      dimension: { width: 1700, height: 2200, unit: 'pixels' },
      layout: layout(TEXT, [0, 0, 1, 1]),
      paragraphs: [
        { layout: layout('Summit Orthopedics\n', [0.1, 0.05, 0.4, 0.08]) },
        { layout: layout('Patient: Amanda Patel\n', [0.1, 0.1, 0.4, 0.12]) },
        { layout: layout('Code\n', [0.1, 0.2, 0.2, 0.22]) },
        { layout: layout('99213\n', [0.1, 0.25, 0.2, 0.27]) },
      ],
      lines: [
        { layout: layout('Summit Orthopedics\n', [0.1, 0.05, 0.4, 0.08], 0.98) },
        { layout: layout('Patient: Amanda Patel\n', [0.1, 0.1, 0.4, 0.12], 0.95) },
      ],
      tables: [
        {
          layout: layout('Code\nCharge\n99213\n125.00\n', [0.05, 0.18, 0.7, 0.3]),
          headerRows: [{ cells: [cell('Code\n', [0.1, 0.2, 0.2, 0.22]), cell('Charge\n', [0.4, 0.2, 0.5, 0.22])] }],
          bodyRows: [{ cells: [cell('99213\n', [0.1, 0.25, 0.2, 0.27]), cell('125.00\n', [0.4, 0.25, 0.5, 0.27])] }],
        },
      ],
    },
  ],
  entities: [
    { type: 'patient_name', mentionText: 'Amanda Patel', confidence: 0.92 },
    { type: 'patient_name', mentionText: 'A. Patel', confidence: 0.4 },
    {
      type: 'total_amount',
      mentionText: '$125.00',
      confidence: 0.88,
      normalizedValue: { moneyValue: { currencyCode: 'USD', units: '125' }, text: '125 USD' },
    },
  ],
};

async function startGoogle(
  handle?: (request: RecordedRequest, index: number) => { status: number; body: unknown } | undefined,
) {
  let processCalls = 0;
  server = await startHttpServer((request, response) => {
    if (request.url === '/token') {
      checkGrant(request, `${server!.url}/token`);
      return sendJson(response, 200, { access_token: TOKEN, expires_in: 3599, token_type: 'Bearer' });
    }
    if (request.headers.authorization !== `Bearer ${TOKEN}`)
      return sendJson(response, 401, {
        error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
      });
    const special = handle?.(request, processCalls++);
    if (special) return sendJson(response, special.status, special.body);
    expect(request.url).toBe(`/v1/${PROCESSOR}:process`);
    sendJson(response, 200, { document: DOCUMENT, humanReviewStatus: { state: 'SKIPPED' } });
  });
  return server;
}

async function system(extra: Record<string, unknown> = {}) {
  const file = await keyFile(`${server!.url}/token`);
  return createSystem(
    googleDocAiKind,
    'docai',
    { processor: PROCESSOR, endpoint: server!.url, credentialsEnv: 'TEST_GOOGLE_KEY_FILE', ...extra },
    makeContext('docai', { TEST_GOOGLE_KEY_FILE: file }),
  );
}

describe('google-docai', () => {
  it('gets a token with a signed JWT once, sends the document, and reads paragraphs and tables into markdown', async () => {
    await startGoogle();
    const docai = await system();
    const pdf = await ONE_PAGE;
    const first = await docai.call(makeCall(pdf, 'application/pdf', compareRequest));
    const second = await docai.call(makeCall(pdf, 'application/pdf', compareRequest));
    await docai.close();
    if (!first.ok || !second.ok) throw new Error('process failed');
    expect(server!.requests.map((r) => r.url)).toEqual([
      '/token',
      `/v1/${PROCESSOR}:process`,
      `/v1/${PROCESSOR}:process`,
    ]);
    expect(JSON.parse(server!.requests[1]!.body.toString())).toEqual({
      rawDocument: { content: pdf.toString('base64'), mimeType: 'application/pdf' },
      skipHumanReview: true,
    });
    expect((first.result as CompareResult).pages).toEqual([
      {
        content: 'Summit Orthopedics\n\nPatient: Amanda Patel\n\n| Code | Charge |\n| --- | --- |\n| 99213 | 125.00 |',
        width: 612,
        height: 792,
      },
    ]);
    expect(first.usage).toEqual({ pages: 1 });
    expect(JSON.stringify(first.raw)).not.toContain(TOKEN);
  });

  it('places a table cell spanning rows or columns once, in its first position, the positions it covers left empty', async () => {
    // Each row lists the cells that start in it (TableRow.cells; TableCell.rowSpan/colSpan).
    const text = 'Service\nAmount\nCode\nName\n99213\nOffice visit\n125.00\n';
    const spanned = (part: string, rowSpan: number, colSpan: number) => {
      const start = text.indexOf(part);
      return {
        layout: {
          textAnchor: { textSegments: [{ startIndex: String(start), endIndex: String(start + part.length + 1) }] },
        },
        rowSpan,
        colSpan,
      };
    };
    const table = {
      layout: { textAnchor: { textSegments: [{ endIndex: String(text.length) }] } },
      headerRows: [
        { cells: [spanned('Service', 1, 2), spanned('Amount', 2, 1)] },
        { cells: [spanned('Code', 1, 1), spanned('Name', 1, 1)] },
      ],
      bodyRows: [{ cells: [spanned('99213', 1, 1), spanned('Office visit', 1, 1), spanned('125.00', 1, 1)] }],
    };
    const document = {
      mimeType: 'application/pdf',
      text,
      pages: [
        {
          pageNumber: 1,
          dimension: { width: 1700, height: 2200, unit: 'pixels' },
          paragraphs: [],
          lines: [],
          tables: [table],
        },
      ],
    };
    await startGoogle(() => ({ status: 200, body: { document } }));
    const docai = await system();
    const outcome = await docai.call(makeCall(await ONE_PAGE, 'application/pdf', compareRequest));
    await docai.close();
    if (!outcome.ok) throw outcome.error;
    expect((outcome.result as CompareResult).pages[0]!.content).toBe(
      '| Service |  | Amount |\n| --- | --- | --- |\n| Code | Name |  |\n| 99213 | Office visit | 125.00 |',
    );
  });

  it('gives line regions from normalized vertices × the page size, with the line confidence', async () => {
    await startGoogle();
    const docai = await system();
    const outcome = await docai.call(makeCall(await ONE_PAGE, 'application/pdf', splitRequest));
    await docai.close();
    if (!outcome.ok) throw outcome.error;
    // 0.1 × 8.5 = 0.85 in, 0.1 × 11 = 1.1, 0.4 × 8.5 = 3.4, 0.12 × 11 = 1.32.
    expect((outcome.result as SplitResult).pages[0]!.bounding_boxes[1]).toEqual({
      bounding_box: { min_x: 0.85, min_y: 1.1, max_x: 3.4, max_y: 1.32 },
      content: 'Patient: Amanda Patel',
      confidence: 95,
    });
  });

  it('maps entities onto the schema: the most confident of each type, money as a number', async () => {
    await startGoogle();
    const docai = await system({
      entityMap: { patient: 'patient_name', 'billing.total': 'total_amount', 'billing.due': 'amount_due' },
    });
    const outcome = await docai.call(
      makeCall(await ONE_PAGE, 'application/pdf', extractRequest({ type: 'object', properties: {} })),
    );
    await docai.close();
    if (!outcome.ok) throw outcome.error;
    // (0.92 + 0.88) / 2 = 0.90 → 90.
    expect(outcome.result).toMatchObject({
      data: { patient: 'Amanda Patel', billing: { total: 125 } },
      confidence: 90,
      confidenceScale: '0-1',
    } satisfies Partial<ExtractResult>);
  });

  it('retries RESOURCE_EXHAUSTED, names the processor on NOT_FOUND, and maps a refused grant to SERVICE_AUTH', async () => {
    await startGoogle((_request, index) => {
      if (index === 0)
        return {
          status: 429,
          body: { error: { code: 429, message: 'Quota exceeded for quota metric', status: 'RESOURCE_EXHAUSTED' } },
        };
      if (index === 2)
        return { status: 404, body: { error: { code: 404, message: 'Processor not found', status: 'NOT_FOUND' } } };
      return undefined;
    });
    const docai = await system();
    const call = makeCall(await ONE_PAGE, 'application/pdf', compareRequest);
    const retried = await docai.call(call);
    expect(retried.ok && retried.attempts).toBe(2);
    const missing = await docai.call(call);
    await docai.close();
    expect(missing.ok ? null : missing.error.message).toBe(
      `docai: HTTP 404 (NOT_FOUND: Processor not found) — processor "${PROCESSOR}" not found at ${server!.url}`,
    );

    await server!.close();
    server = await startHttpServer((_request, response) =>
      sendJson(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }),
    );
    const refused = await system();
    const outcome = await refused.call(call);
    await refused.close();
    expect(outcome.ok ? null : outcome.error.code).toBe('SERVICE_AUTH');
  });

  it('rejects a malformed processor path and a key file that is not a service account', async () => {
    expect(() => parseKindOptions(googleDocAiKind, { processor: 'abc123' }, 'systems.docai')).toThrow(
      /systems\.docai\.processor: must look like projects/,
    );
    const file = path.join(dir, 'user.json');
    await writeFile(file, JSON.stringify({ type: 'authorized_user' }));
    await expect(
      createSystem(
        googleDocAiKind,
        'docai',
        { processor: PROCESSOR },
        makeContext('docai', { GOOGLE_APPLICATION_CREDENTIALS: file }),
      ),
    ).rejects.toThrow(/"type" is "authorized_user", expected "service_account"/);
  });
});
