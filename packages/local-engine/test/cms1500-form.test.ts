import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { buildExtractResult } from '../src/endpoints.js';
import { silentLogger } from '../src/contract.js';
import { aggregateExtraction, scoreExtraction } from '../../../src/score/index.js';
import type { Json, JsonSchema } from '../src/contract.js';
import { CMS1500_SCHEMA, cms1500Values, renderCms1500, renderCms1500Printed } from './cms1500-form.js';

describe('a CMS-1500 form rendered as a 200-DPI scan, read through PP-OCR and a schema of its own', () => {
  it('reads its boxes: check boxes into enums and booleans, MM | DD | YY dates, names and ids under captions', async () => {
    const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 2, logger: silentLogger });
    try {
      const values = cms1500Values(1);
      const png = await renderCms1500(values, 'clean_scan', 1);
      const doc = await engine.analyse({ bytes: png, format: 'png', filename: 'cms1500.png' });
      // The page's check boxes are found from its pixels, marked ones told apart from empty ones.
      const boxes = doc.pages[0]!.checkBoxes!;
      expect(boxes.length).toBeGreaterThanOrEqual(22);
      expect(boxes.filter((b) => b.marked).length).toBe(9);
      const result = buildExtractResult(doc.pages, CMS1500_SCHEMA as unknown as JsonSchema, false, 'US');
      const got = JSON.parse(result.response as string);
      // Check boxes: the marked one among the options printed beside them, or YES/NO under a caption.
      expect(values.program).toBe('Medicaid');
      expect(got.program).toBe('Medicaid');
      expect(got.relationship).toBe(values.relationship);
      expect(got.patient.gender).toBe(values.patient.gender);
      expect(got.employment_related).toBe(false);
      expect(got.auto_accident).toBe(true);
      expect(got.other_plan).toBe(true);
      expect(got.accepts_assignment).toBe(false);
      // Dates over MM | DD | YY sub-boxes, a two-digit birth year in the last century.
      expect(got.patient.birth_date).toBe(values.patient.birth_date);
      expect(got.insured_birth_date).toBe(values.insured_birth_date);
      // Boxes read under their numbered captions.
      expect(got.patient.full_name).toBe(values.patient.full_name);
      expect(got.insured_name).toBe(values.insured_name);
      expect(got.policy_group).toBe(values.policy_group);
      expect(got.tax_id).toBe(values.tax_id);
      expect(got.account_no).toBe(values.account_no);
      expect(got.billing_npi).toBe(values.billing_npi);
      // Dollars and cents split by a rule.
      expect(got.amount_paid).toBe(values.amount_paid);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('reads a copy saved stating 72 DPI as it reads the scan, and finds the check boxes of one blurred by 2 px', async () => {
    const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 3, logger: silentLogger });
    const read = async (bytes: Buffer, name: string) => {
      const doc = await engine.analyse({ bytes, format: 'png', filename: name });
      const result = buildExtractResult(doc.pages, CMS1500_SCHEMA as unknown as JsonSchema, false, 'US');
      return { boxes: doc.pages[0]!.checkBoxes!, got: JSON.parse(result.response as string) };
    };
    try {
      const values = cms1500Values(2);
      const png = await renderCms1500(values, 'clean_scan', 2);
      const scan = await read(png, 'scan.png');
      // At the stated resolution its boxes of 0.1 in would be 0.28 in: the paper's is read from the text.
      const stating72 = await read(await sharp(png).withMetadata({ density: 72 }).png().toBuffer(), 'stating72.png');
      expect(stating72.got).toEqual(scan.got);
      // Thin rules at 0.73 of the paper: lighter than the ink of a sharp scan.
      const blurred = await read(await sharp(png).blur(2).png().toBuffer(), 'blurred.png');
      expect(blurred.boxes.length).toBe(scan.boxes.length);
      expect(blurred.boxes.filter((b) => b.marked).length).toBe(scan.boxes.filter((b) => b.marked).length);
      const { got } = blurred;
      expect([got.program, got.relationship, got.patient.gender]).toEqual([
        values.program,
        values.relationship,
        values.patient.gender,
      ]);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('reads a copy resampled to 75 DPI, whose text is a dozen pixels high, again upscaled', async () => {
    const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 2, logger: silentLogger });
    try {
      const values = cms1500Values(1);
      const png = await renderCms1500(values, 'clean_scan', 1);
      const { width } = await sharp(png).metadata();
      const small = await sharp(png)
        .resize(Math.round((width! * 75) / 200))
        .withMetadata({ density: 75 })
        .png()
        .toBuffer();
      const doc = await engine.analyse({ bytes: small, format: 'png', filename: 'cms1500-75dpi.png' });
      const schema = CMS1500_SCHEMA as unknown as JsonSchema;
      const got = JSON.parse(buildExtractResult(doc.pages, schema, false, 'US').response as string) as Json;
      // Read as it stands, the page seemed upside down and gave nothing (field F1 0.000).
      const f1 = aggregateExtraction([scoreExtraction(values as unknown as Json, got, { schema })]).micro.f1;
      expect(f1).toBeGreaterThan(0.8);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('reads the form printed in a light dropout red and scanned in colour: its rules and check boxes as well', async () => {
    const engine = await createEngine({ ocr: 'pp-ocr', ocrWorkers: 1, cacheSize: 2, logger: silentLogger });
    try {
      const values = cms1500Values(1);
      const png = await renderCms1500Printed(values, { ink: [240, 160, 200] });
      const doc = await engine.analyse({ bytes: png, format: 'png', filename: 'cms1500-red.png' });
      // By luminance the pink rules are only ~25% darker than the paper: most boxes were lost (field F1 0.70 on four forms).
      const boxes = doc.pages[0]!.checkBoxes!;
      expect(boxes.length).toBeGreaterThanOrEqual(22);
      expect(boxes.filter((b) => b.marked).length).toBe(9);
      const schema = CMS1500_SCHEMA as unknown as JsonSchema;
      const got = JSON.parse(buildExtractResult(doc.pages, schema, false, 'US').response as string);
      expect(got.program).toBe('Medicaid');
      expect(got.patient.gender).toBe(values.patient.gender);
      // Dollars and cents split by a thin red rule.
      expect(got.total_charge).toBe(values.total_charge);
      const f1 = aggregateExtraction([scoreExtraction(values as unknown as Json, got, { schema })]).micro.f1;
      expect(f1).toBeGreaterThan(0.95);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
