/**
 * Checks the held-out fixture itself (test/local-engine/invoices-held-out.ts), not the engine's score: each page
 * renders to a PDF whose text layer holds every truth value as printed, the printed date and total agree with the
 * truth's ISO date and number, each language has native field names, and ids are unique.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import {
  HELD_OUT_FIELDS,
  HELD_OUT_LANGUAGES,
  HELD_OUT_NATIVE_NAMES,
  HELD_OUT_PAGES,
  type HeldOutLanguage,
  type HeldOutPage,
  renderHeldOutPage,
} from './invoices-held-out.js';

/** The text layer of a one-page PDF, whitespace collapsed to single spaces. */
async function pdfText(bytes: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, verbosity: 0 }).promise;
  try {
    expect(document.numPages).toBe(1);
    const page = await document.getPage(1);
    const content = await page.getTextContent();
    const parts: string[] = [];
    for (const item of content.items) if ('str' in item) parts.push(item.str, item.hasEOL ? '\n' : ' ');
    return parts.join('').replace(/\s+/g, ' ');
  } finally {
    await document.destroy();
  }
}

/** Month names as each language writes them, lower case: from the ICU data Node ships, not typed here. */
const monthNames = (language: HeldOutLanguage): string[] =>
  Array.from({ length: 12 }, (_, m) =>
    new Intl.DateTimeFormat(language, { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2025, m, 15)).toLowerCase(),
  );

/** A date as printed on a European page (day first, numeric or with the month's name) as ISO; null if unreadable. */
function printedDateToIso(printed: string, language: HeldOutLanguage): string | null {
  const pad = (n: number) => String(n).padStart(2, '0');
  const numeric = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})$/.exec(printed);
  if (numeric) {
    const [, d, m, y] = numeric;
    const year = y!.length === 2 ? 2000 + Number(y) : Number(y);
    return `${year}-${pad(Number(m))}-${pad(Number(d))}`;
  }
  const named = /^(\d{1,2})\.? (?:de )?(\p{L}+) (?:de )?(\d{4})$/u.exec(printed);
  if (named) {
    const month = monthNames(language).indexOf(named[2]!.toLowerCase());
    if (month < 0) return null;
    return `${named[3]}-${pad(month + 1)}-${pad(Number(named[1]))}`;
  }
  return null;
}

/** An amount as printed on a European page (1.234,56 / 1 234,56, with or without € or EUR) as a number. */
function printedAmountToNumber(printed: string): number | null {
  const digits = printed.replace(/€|EUR/g, '').replace(/\s+/g, ' ').trim();
  if (!/^-?\d{1,3}([. ]\d{3})*,\d{2}$/.test(digits)) return null;
  return Number(digits.replace(/[. ]/g, '').replace(',', '.'));
}

/** What is wrong with one page's truth against its text layer; empty when nothing is. */
function truthProblems(page: HeldOutPage, text: string): string[] {
  const problems: string[] = [];
  const has = (value: string) => text.includes(value.replace(/\s+/g, ' '));
  if (!has(page.truth.issuer)) problems.push(`issuer "${page.truth.issuer}" is not printed`);
  if (!has(page.truth.invoice_number)) problems.push(`number "${page.truth.invoice_number}" is not printed`);
  if (!has(page.printed.invoice_date)) problems.push(`date "${page.printed.invoice_date}" is not printed`);
  if (!has(page.printed.total_amount)) problems.push(`total "${page.printed.total_amount}" is not printed`);
  const iso = printedDateToIso(page.printed.invoice_date, page.language);
  if (iso !== page.truth.invoice_date)
    problems.push(`printed date "${page.printed.invoice_date}" reads ${iso}, truth ${page.truth.invoice_date}`);
  const amount = printedAmountToNumber(page.printed.total_amount);
  if (amount === null || Math.abs(amount - page.truth.total_amount) > 0.005)
    problems.push(`printed total "${page.printed.total_amount}" reads ${amount}, truth ${page.truth.total_amount}`);
  return problems;
}

describe('held-out invoice and receipt pages', () => {
  it('has four pages per language and unique ids', () => {
    const ids = HELD_OUT_PAGES.map((page) => page.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const language of HELD_OUT_LANGUAGES)
      expect(HELD_OUT_PAGES.filter((page) => page.language === language)).toHaveLength(4);
  });

  it('gives every truth date as ISO and every total as a number', () => {
    for (const page of HELD_OUT_PAGES) {
      expect(page.truth.invoice_date, page.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isFinite(page.truth.total_amount), page.id).toBe(true);
    }
  });

  it.each(HELD_OUT_PAGES.map((page) => [page.id, page] as const))(
    '%s: the text layer holds each truth value as printed',
    async (_id, page) => {
      const bytes = await renderHeldOutPage(page);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = await pdfText(bytes);
      expect(truthProblems(page, text)).toEqual([]);
    },
  );

  it('catches a truth that is not what the page prints', async () => {
    const page = HELD_OUT_PAGES[0]!;
    const text = await pdfText(await renderHeldOutPage(page));
    const wrong: HeldOutPage = {
      ...page,
      truth: {
        ...page.truth,
        invoice_number: `${page.truth.invoice_number}9`,
        total_amount: page.truth.total_amount + 1,
      },
      printed: { ...page.printed, invoice_date: '31.12.2024' },
    };
    expect(truthProblems(wrong, text)).toHaveLength(4);
  });

  it('names the four fields in each language, snake_case, each with a description', () => {
    for (const page of HELD_OUT_PAGES) {
      const names = HELD_OUT_NATIVE_NAMES[page.language];
      expect(names, page.id).toBeDefined();
      const seen = new Set<string>();
      for (const field of HELD_OUT_FIELDS) {
        const native = names[field];
        expect(native.name, `${page.language} ${field}`).toMatch(/^[a-z]+(_[a-z]+)*$/);
        expect(native.name, `${page.language} ${field}`).not.toBe(field);
        expect(native.description.split(' ').length, `${page.language} ${field}`).toBeGreaterThanOrEqual(4);
        seen.add(native.name);
      }
      expect(seen.size, page.language).toBe(HELD_OUT_FIELDS.length);
    }
  });
});
