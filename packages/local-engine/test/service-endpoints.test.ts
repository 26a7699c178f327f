import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../src/index.js';
import {
  FORM_SCHEMA,
  FORM_TRUTH,
  QR_VALUE,
  fieldAccuracy,
  makeClaimPdf,
  makeTwoPageTiff,
  renderPdfToPng,
} from './fixtures.js';
import { postJson } from './post-form.js';

let service: LocalService;
let dataDir: string;
let pdf: Buffer;
let png: Buffer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'docbench-local-test-'));
  service = await startLocalService({ dataDir });
  pdf = await makeClaimPdf();
  png = await renderPdfToPng(pdf);
});

afterAll(async () => {
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const pdfPart = () => ({ bytes: pdf, filename: 'claim.pdf', type: 'application/pdf' });
const pngPart = () => ({ bytes: png, filename: 'claim.png', type: 'image/png' });

describe('POST /v1/process', () => {
  it('reads the PDF text layer and adds boxes, barcodes, signatures and images when asked', async () => {
    const { status, body } = await postJson(`${service.baseUrl}/v1/process`, {
      file: pdfPart(),
      include_bounding_boxes: 'true',
      extract_metadata: 'true',
      extract_signature: 'true',
      extract_images: 'true',
    });
    expect(status).toBe(200);
    expect(body.status).toBe('success');
    expect(body.document_id).toMatch(/^doc_[0-9a-f]+$/);
    expect(body.content.text).toContain('Patient Name: John Smith');
    expect(body.content.structured_data.key_value_pairs).toContainEqual({
      key: 'Member ID',
      value: 'XKB-448120',
      page: 1,
    });
    expect(body.metadata.page_count).toBe(1);
    expect(Number.isInteger(body.metadata.processing_time_ms)).toBe(true);
    const nameBox = body.bounding_boxes.find((b: any) => b.text === 'Patient Name: John Smith');
    // Printed at x = 72 pt (1 in), y = 130 pt (1.81 in) from the top.
    expect(nameBox.page).toBe(1);
    expect(nameBox.bounding_box.min_x).toBeCloseTo(1, 1);
    expect(nameBox.bounding_box.min_y).toBeGreaterThan(1.7);
    expect(nameBox.bounding_box.max_y).toBeLessThan(2.05);
    expect(body.barcodes).toHaveLength(1);
    expect(body.barcodes[0]).toMatchObject({ value: QR_VALUE, type: 'QRCode', page: 1 });
    expect(body.barcodes[0].bounding_box.min_x).toBeGreaterThan(6);
    expect(body.signatures).toHaveLength(1);
    expect(body.signatures[0]).toMatchObject({ page: 1, method: 'ink-near-label' });
    // The scribble spans x 180–300 pt (2.5–4.2 in).
    expect(body.signatures[0].bounding_box.min_x).toBeGreaterThan(2.3);
    expect(body.signatures[0].bounding_box.max_x).toBeLessThan(4.4);
    expect(body.images).toHaveLength(1);
    expect(body.images[0]).toMatchObject({ page: 1, source: 'embedded-image' });
    expect(body.images[0].bounding_box.min_x).toBeCloseTo(450 / 72, 1);
  });

  it('leaves the optional arrays out unless asked', async () => {
    const { body } = await postJson(`${service.baseUrl}/v1/process`, { file: pdfPart() });
    expect(body).not.toHaveProperty('bounding_boxes');
    expect(body).not.toHaveProperty('barcodes');
    expect(body).not.toHaveProperty('signatures');
    expect(body).not.toHaveProperty('images');
  });

  it('OCRs an image and sizes its page from the density metadata', async () => {
    const { status, body } = await postJson(`${service.baseUrl}/v1/process`, {
      file: pngPart(),
      extract_metadata: 'true',
    });
    expect(status).toBe(200);
    expect(body.content.text).toContain('John Smith');
    expect(body.metadata.page_count).toBe(1);
    expect(body.metadata.pages[0]).toMatchObject({ width: 612, height: 792, source: 'ocr' });
    expect(body.barcodes.map((b: any) => b.value)).toEqual([QR_VALUE]);
  });

  it('counts the pages of a multi-page TIFF', async () => {
    const tiff = await makeTwoPageTiff(png, png);
    const { status, body } = await postJson(`${service.baseUrl}/v1/process`, {
      file: { bytes: tiff, filename: 'two.tif' },
    });
    expect(status).toBe(200);
    expect(body.metadata.page_count).toBe(2);
    expect(body.content.text.match(/John Smith/g)).toHaveLength(2);
  });
});

describe('POST /extract', () => {
  it(`fills the schema from the PDF form with at least 90% of fields right (measured: 19/19)`, async () => {
    const { status, body } = await postJson(`${service.baseUrl}/extract`, {
      file: pdfPart(),
      schema: JSON.stringify(FORM_SCHEMA),
    });
    expect(status).toBe(200);
    expect(typeof body.response).toBe('string');
    expect(body.method).toBe('slow');
    expect(body.pages_processed).toBe(1);
    const accuracy = fieldAccuracy(FORM_TRUTH, JSON.parse(body.response));
    expect(accuracy.misses).toEqual([]);
    expect(accuracy.correct / accuracy.total).toBeGreaterThanOrEqual(0.9);
    expect(body.confidence_score).toBeGreaterThan(80);
    expect(body.confidence_score).toBeLessThanOrEqual(100);
  });

  it('fills the schema from the rendered PNG (OCR) with at least 70% of fields right (measured: 19/19)', async () => {
    const { body } = await postJson(`${service.baseUrl}/extract`, {
      file: pngPart(),
      schema: JSON.stringify(FORM_SCHEMA),
    });
    const accuracy = fieldAccuracy(FORM_TRUTH, JSON.parse(body.response));
    expect(accuracy.correct / accuracy.total, accuracy.misses.join('\n')).toBeGreaterThanOrEqual(0.7);
  });

  it('gives lower confidence when the required fields are not on the document', async () => {
    const absent = {
      type: 'object',
      required: ['policy_holder', 'group_number'],
      properties: {
        policy_holder: { type: 'string', description: 'Policy Holder' },
        group_number: { type: 'string', description: 'Group Number' },
        patient_name: { type: 'string' },
      },
    };
    const good = await postJson(`${service.baseUrl}/extract`, { file: pdfPart(), schema: JSON.stringify(FORM_SCHEMA) });
    const bad = await postJson(`${service.baseUrl}/extract`, { file: pdfPart(), schema: JSON.stringify(absent) });
    expect(JSON.parse(bad.body.response)).toMatchObject({ policy_holder: null, group_number: null });
    expect(bad.body.confidence_score).toBeLessThan(good.body.confidence_score - 30);
  });

  it('answers fast mode without the slow-mode fields, with dates as printed', async () => {
    const { body } = await postJson(`${service.baseUrl}/extract`, {
      file: pdfPart(),
      schema: JSON.stringify(FORM_SCHEMA),
      fast: 'true',
    });
    expect(body.method).toBe('fast');
    expect(body).not.toHaveProperty('confidence_score');
    expect(body).not.toHaveProperty('pages_processed');
    expect(JSON.parse(body.response)).toMatchObject({ patient_name: 'John Smith', date_of_birth: '03/05/1980' });
  });

  it('lists image metadata with original and pixel boxes and measured times when asked', async () => {
    const { body } = await postJson(`${service.baseUrl}/extract`, {
      file: pdfPart(),
      schema: JSON.stringify(FORM_SCHEMA),
      imageMetadataDetect: 'true',
    });
    expect(body.image_metadata).toHaveLength(1);
    const [figure] = body.image_metadata;
    expect(figure.figure_id).toBe(1);
    expect(figure.cropped_image_url).toMatch(/^data:image\/png;base64,/);
    expect(figure.bounding_box.original.x).toBeCloseTo(450, 0);
    expect(figure.bounding_box.original.w).toBeCloseTo(90, 0);
    // Pixels of the 200-DPI render: 450 pt × 200/72.
    expect(figure.bounding_box.pixel.x).toBeGreaterThanOrEqual(1248);
    expect(figure.bounding_box.pixel.x).toBeLessThanOrEqual(1251);
    for (const key of ['detection_ms', 'crop_ms', 'ocr_ms', 'total_ms'])
      expect(typeof figure.processing_times[key]).toBe('number');
    const images = await postJson(`${service.baseUrl}/extract`, {
      file: pdfPart(),
      schema: JSON.stringify(FORM_SCHEMA),
    });
    expect(images.body).not.toHaveProperty('image_metadata');
  });
});

describe('POST /split, /markdown and /compare', () => {
  it('splits pages into paragraph regions in inches from the top-left, with page sizes in points', async () => {
    const { status, body } = await postJson(`${service.baseUrl}/split`, { file: pdfPart() });
    expect(status).toBe(200);
    expect(body.pages).toHaveLength(1);
    const [page] = body.pages;
    expect(page).toMatchObject({ page: 1, width: 612, height: 792 });
    const region = page.bounding_boxes.find((b: any) => b.content === 'Total Charges: $310.50');
    expect(region.bounding_box.min_x).toBeCloseTo(1, 1);
    expect(region.bounding_box.min_y).toBeGreaterThan(390 / 72 - 0.1);
    expect(region.bounding_box.max_y).toBeLessThan(405 / 72);
  });

  it('renders headings and the line items as a markdown table', async () => {
    const { body } = await postJson(`${service.baseUrl}/markdown`, { file: pdfPart() });
    expect(body.success).toBe(true);
    expect(body.pages[0].width).toBe(612);
    expect(body.pages[0].content).toContain('# CLAIM FORM');
    expect(body.pages[0].content).toContain('| Service Date | CPT Code | Description | Charge |');
    expect(body.pages[0].content).toContain('| 01/09/2024 | 71046 | Chest X-ray | $145.00 |');
  });

  it('stores the baseline, escapes it on /evals, links every file and survives a restart', async () => {
    const first = await postJson(`${service.baseUrl}/compare`, {
      file: pdfPart(),
      original_results: '# Baseline <script>alert(1)</script>',
    });
    const second = await postJson(`${service.baseUrl}/compare`, {
      file: pngPart(),
      originalResults: 'second baseline',
    });
    expect(first.body.success).toBe(true);
    expect(first.body.comparison_id).toMatch(/^[a-z0-9-]+$/);
    expect(first.body.dashboard_url).toBe(`${service.baseUrl}/evals?filename=${first.body.comparison_id}`);
    expect(first.body.pages[0].content).toContain('# CLAIM FORM');

    const page = await (await fetch(first.body.dashboard_url)).text();
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('# CLAIM FORM');
    expect(page).toContain(`href="/evals?filename&#x3D;${second.body.comparison_id}"`);

    const restarted = await startLocalService({ dataDir });
    try {
      const again = await fetch(`${restarted.baseUrl}/evals?filename=${second.body.comparison_id}`);
      expect(again.status).toBe(200);
      expect(await again.text()).toContain('second baseline');
    } finally {
      await restarted.close();
    }
  });

  it('refuses /evals ids with path characters (400) and unknown ids (404), as JSON', async () => {
    for (const bad of ['../../etc/passwd', 'a/b', '..', 'x.json']) {
      const response = await fetch(`${service.baseUrl}/evals?filename=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      expect((await response.json()).error.code).toBe('invalid_filename');
    }
    const missing = await fetch(`${service.baseUrl}/evals?filename=nothing-here-0000`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
  });
});
