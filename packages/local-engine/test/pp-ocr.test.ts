import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeImagePage } from '@docbench/pdf';
import { createPageOcr } from '../src/page-ocr.js';
import { repairDigitLetterSlips } from '../src/pp-ocr.js';
import { silentLogger } from '../src/contract.js';
import { makeClaimPdf, renderPdfToPng } from './fixtures.js';

describe('PP-OCR (optional dependencies, installed in this repository)', () => {
  it('loads, names its models and runtime, and reads a rendered page into words with boxes in points', async () => {
    const ocr = await createPageOcr('auto', { workers: 1, logger: silentLogger });
    expect(ocr.version).toMatch(/^pp-ocrv4\+onnxruntime-node@\d+\.\d+\.\d+$/);
    const page = await decodeImagePage(await renderPdfToPng(await makeClaimPdf()), 0);
    const { words, confidence } = await ocr.read(page);
    const text = words.map((w) => w.text).join(' ');
    // Words kept apart (the model's own space probability), digits and letters as printed.
    for (const phrase of ['CLAIM FORM', 'Total Charges: $310.50', 'Office visit', '99213'])
      expect(text).toContain(phrase);
    expect(confidence).toBeGreaterThan(80);
    // Boxes in points on a Letter page: "CLAIM" was drawn at x = 72 pt, y = 72 pt, 20 pt high.
    const claim = words.find((w) => w.text === 'CLAIM')!;
    expect(claim.box.x0).toBeGreaterThan(66);
    expect(claim.box.x0).toBeLessThan(78);
    expect(claim.box.y0).toBeGreaterThan(64);
    expect(claim.box.y1).toBeLessThan(100);
    expect(claim.fontSize).toBeGreaterThan(12);
    expect(claim.fontSize).toBeLessThan(30);
    await ocr.close();
  });

  it('is skipped by name: ocr tesseract never loads the ONNX runtime', async () => {
    const ocr = await createPageOcr('tesseract', { workers: 1, logger: silentLogger });
    expect(ocr.version).toMatch(/^tesseract\.js@\d+/);
    await ocr.close();
  });
});

describe('without the optional packages (a consumer whose install skipped onnxruntime-node)', () => {
  afterEach(() => {
    vi.doUnmock('onnxruntime-node');
    vi.resetModules();
  });

  it('auto falls back to tesseract.js and says why; pp-ocr by name is an option error naming the option', async () => {
    vi.resetModules();
    vi.doMock('onnxruntime-node', () => {
      throw new Error("Cannot find package 'onnxruntime-node'");
    });
    const { createPageOcr: create } = await import('../src/page-ocr.js');
    const messages: string[] = [];
    const logger = { ...silentLogger, info: (message: string) => messages.push(message) };
    const ocr = await create('auto', { workers: 1, logger });
    expect(ocr.version).toMatch(/^tesseract\.js@/);
    expect(messages.join('\n')).toMatch(
      /PP-OCR is not available: onnxruntime-node (or @gutenye\/ocr-models is not installed|does not load here)/,
    );
    await ocr.close();
    await expect(create('pp-ocr', { workers: 1, logger })).rejects.toMatchObject({
      name: 'EngineOptionError',
      subject: 'ocr',
      hint: expect.stringMatching(/choose ocr auto or tesseract/),
    });
  });
});

describe('repairDigitLetterSlips', () => {
  it('turns zeros inside words into O, ones inside words into l/I, and Os inside numbers into zeros', () => {
    expect(repairDigitLetterSlips('FL0OR')).toBe('FLOOR');
    expect(repairDigitLetterSlips('INU0ICE')).toBe('INUOICE');
    expect(repairDigitLetterSlips('Leve1')).toBe('Level');
    expect(repairDigitLetterSlips('Ja1an')).toBe('Jalan');
    expect(repairDigitLetterSlips('4330O')).toBe('43300');
  });

  it('leaves amounts, ids, codes and ordinals alone', () => {
    for (const token of ['60.30', 'RM9.90', 'T0422', '1851-A', 'SS21/62', '1st', 'A1', 'F1-01', '10HD05', 'NO'])
      expect(repairDigitLetterSlips(token)).toBe(token);
  });
});
