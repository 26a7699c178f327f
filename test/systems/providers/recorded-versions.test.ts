/**
 * What the vendors' recorded answers say of the service's version reaches run.json: `docbench run` with
 * `textract` (AnalyzeDocument and DetectDocumentText) and `azure-di` systems against servers on 127.0.0.1
 * replaying the answers AWS's and Microsoft's own projects recorded (test/fixtures/recordings/*, README.md
 * there for source, commit and licence). The expected values are read from the recordings, not written here.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ROOT, readJson, runCli } from '../../helpers/cli.js';
import { startHttpServer, type TestServer } from '../../helpers/http-server.js';
import { sendJson } from './context.js';

const DOCUMENTS = 2;
const AZURE_KEY = 'azure-recorded-key-0123456789';
const AWS = {
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE123456',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  AWS_REGION: 'eu-west-1',
};

async function recording(folder: string, file: string): Promise<Record<string, unknown>> {
  const text = await readFile(path.join(ROOT, 'test', 'fixtures', 'recordings', folder, file), 'utf8');
  const { ResponseMetadata: _boto3, ...body } = JSON.parse(text) as Record<string, unknown>;
  return body;
}

let dir: string;
let textract: TestServer;
let azure: TestServer;
let analyzed: Record<string, unknown>;
let detected: Record<string, unknown>;
let layout: { analyzeResult: Record<string, unknown> };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docbench-recorded-versions-'));
  await cp(path.join(ROOT, 'datasets', 'sample-claims'), path.join(dir, 'dataset'), { recursive: true });
  analyzed = await recording('textract', 'form.png.analyze-layout-tables-forms-signatures.json');
  detected = await recording('textract', 'textractor-singlepage-doc.pdf.detect-document-text.json');
  layout = (await recording('azure-di', 'ContosoSafety360-Sample-2.pdf.layout.json')) as typeof layout;
  textract = await startHttpServer((request, response) =>
    sendJson(
      response,
      200,
      String(request.headers['x-amz-target']).endsWith('DetectDocumentText') ? detected : analyzed,
    ),
  );
  azure = await startHttpServer((request, response) => {
    if (request.method === 'POST') {
      response.writeHead(202, {
        'operation-location': `${azure.url}/formrecognizer/documentModels/prebuilt-layout/analyzeResults/op-1?api-version=2022-06-30-preview`,
        'retry-after': '0',
      });
      return void response.end();
    }
    sendJson(response, 200, layout);
  });
  await writeFile(
    path.join(dir, 'docbench.config.yaml'),
    stringify({
      endpoints: ['compare'],
      systems: {
        analyze: { kind: 'textract', endpoint: textract.url },
        detect: { kind: 'textract', endpoint: textract.url, api: 'DetectDocumentText' },
        azure: { kind: 'azure-di', endpoint: azure.url, apiKeyEnv: 'TEST_AZURE_KEY', apiVersion: '2022-06-30-preview' },
      },
    }),
  );
});

afterAll(async () => {
  await textract?.close();
  await azure?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('vendor recordings through docbench run', () => {
  it("keeps Textract's model versions and Azure's API version and model in run.json", async () => {
    const result = await runCli(
      ['run', '--dataset', 'dataset', '--out', 'run', '--limit', String(DOCUMENTS), '--no-gate'],
      dir,
      { ...AWS, TEST_AZURE_KEY: AZURE_KEY },
    );
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readJson(path.join(dir, 'run', 'run.json'));
    const reported = Object.fromEntries(
      manifest.systems.map((system: { name: string; reported?: unknown }) => [system.name, system.reported]),
    );
    expect(reported.analyze).toEqual({
      AnalyzeDocumentModelVersion: { [analyzed.AnalyzeDocumentModelVersion as string]: DOCUMENTS },
    });
    expect(reported.detect).toEqual({
      DetectDocumentTextModelVersion: { [detected.DetectDocumentTextModelVersion as string]: DOCUMENTS },
    });
    expect(reported.azure).toEqual({
      apiVersion: { [layout.analyzeResult.apiVersion as string]: DOCUMENTS },
      modelId: { [layout.analyzeResult.modelId as string]: DOCUMENTS },
    });
    const html = await readFile(path.join(dir, 'run', 'report.html'), 'utf8');
    expect(html).toContain(`<code>apiVersion</code> ${layout.analyzeResult.apiVersion as string} (${DOCUMENTS})`);
  }, 240_000);
});
