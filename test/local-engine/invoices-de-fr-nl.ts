/**
 * Invoices and receipts in German, French and Dutch (docs/multilingual-pages.md): twelve made-up pages laid out as
 * businesses in those countries print them (a letterhead invoice with a meta block, a window-envelope invoice with a
 * row of captions over values, a till receipt, a café or shop receipt), with their own captions (Rechnungsnummer,
 * Facture N°, Factuurnummer, Summe, Total à payer, Totaal…), dates (12.03.2025, 05/03/2025, 14-03-2025,
 * 17 février 2025) and amounts (1.234,56 €, 1 234,56 €, € 1.234,56). Each page's truth is its issuer, number,
 * date and total under a schema with neutral English names; `NATIVE_NAMES` says the same fields in each language.
 *
 * `writeInvoicesDataset(dir)` writes them as a docbench dataset (documents/, schema.json, truth/, dataset.json), with
 * the schema in each language beside it (schema.de.json…, not part of the dataset's format);
 * the committed fixture test/local-engine/invoices-de-fr-nl/ is its output (`npx tsx test/local-engine/invoices-de-fr-nl.ts
 * <dir>` writes it again).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

export const LANGUAGES = ['de', 'fr', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What each page's truth holds, under the neutral schema's names. */
export interface InvoiceTruth {
  issuer: string;
  invoice_number: string;
  invoice_date: string;
  total_amount: number;
}

/** The neutral schema: English names, no language's captions. */
export const INVOICES_SCHEMA = {
  type: 'object',
  properties: {
    issuer: { type: 'string', description: 'name of the company that issued the invoice or receipt' },
    invoice_number: { type: 'string', description: 'number of the invoice or receipt' },
    invoice_date: { type: 'string', format: 'date', description: 'date the invoice or receipt was issued' },
    total_amount: { type: 'number', description: 'total to pay, taxes included' },
  },
  required: ['issuer', 'invoice_number', 'invoice_date', 'total_amount'],
} as const;

/** The manifest's comparators, as the dev set's invoices score the same fields. */
export const INVOICES_COMPARATORS = {
  issuer: 'text',
  invoice_number: 'code',
  invoice_date: 'date',
  total_amount: { type: 'money', tolerance: 0.005 },
} as const;

/** One field of the schema said in a language (the paraphrase format of bench/paraphrases). */
export interface NativeField {
  name: string;
  description: string;
}

/** The schema's fields as a user in each language would name and describe them. */
export const NATIVE_NAMES: Record<Language, NativeNames> = {
  de: {
    issuer: { name: 'rechnungssteller', description: 'Firma, die die Rechnung oder den Kassenbon ausgestellt hat' },
    invoice_number: { name: 'rechnungsnummer', description: 'Nummer der Rechnung oder des Kassenbons' },
    invoice_date: { name: 'rechnungsdatum', description: 'Datum der Rechnung oder des Kassenbons' },
    total_amount: { name: 'gesamtbetrag', description: 'zu zahlender Betrag einschließlich MwSt.' },
  },
  fr: {
    issuer: { name: 'emetteur', description: 'société qui a émis la facture ou le ticket' },
    invoice_number: { name: 'numero_facture', description: 'numéro de la facture ou du ticket' },
    invoice_date: { name: 'date_facture', description: 'date d’émission de la facture ou du ticket' },
    total_amount: { name: 'montant_ttc', description: 'montant total à payer TTC' },
  },
  nl: {
    issuer: { name: 'leverancier', description: 'bedrijf dat de factuur of kassabon heeft uitgegeven' },
    invoice_number: { name: 'factuurnummer', description: 'nummer van de factuur of kassabon' },
    invoice_date: { name: 'factuurdatum', description: 'datum van de factuur of kassabon' },
    total_amount: { name: 'totaalbedrag', description: 'te betalen bedrag inclusief btw' },
  },
};

/** The names and descriptions a user writing in one language gives the four fields. */
export type NativeNames = Record<keyof InvoiceTruth, NativeField>;

/** The neutral schema said in one language: its field names and descriptions. */
export function nativeSchema(names: NativeNames): Record<string, unknown> {
  const fields = Object.keys(INVOICES_SCHEMA.properties) as (keyof InvoiceTruth)[];
  return {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((field) => [
        names[field].name,
        { ...INVOICES_SCHEMA.properties[field], description: names[field].description },
      ]),
    ),
    required: fields.map((field) => names[field].name),
  };
}

/** A truth under the native schema's names. */
export function nativeTruth(names: NativeNames, truth: InvoiceTruth): Record<string, unknown> {
  return Object.fromEntries(
    (Object.keys(truth) as (keyof InvoiceTruth)[]).map((field) => [names[field].name, truth[field]]),
  );
}

/** How a language prints amounts and dates. */
interface Locale {
  /** Thousands separator; the decimal comma is every one of them. */
  thousands: string;
  /** The amount with its currency as printed: `1.234,56 €`, `€ 1.234,56`. */
  money: (amount: string) => string;
  /** An ISO date as printed in figures. */
  date: (iso: string) => string;
}

const LOCALES: Record<Language, Locale> = {
  de: { thousands: '.', money: (a) => `${a} €`, date: (iso) => iso.split('-').reverse().join('.') },
  fr: { thousands: ' ', money: (a) => `${a} €`, date: (iso) => iso.split('-').reverse().join('/') },
  nl: { thousands: '.', money: (a) => `€ ${a}`, date: (iso) => iso.split('-').reverse().join('-') },
};

/** Cents as the language writes the amount, without the currency: `1.234,56`, `1 234,56`. */
function figures(cents: number, language: Language): string {
  const whole = Math.trunc(Math.abs(cents) / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, LOCALES[language].thousands);
  return `${cents < 0 ? '-' : ''}${whole},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
}

function money(cents: number, language: Language): string {
  return LOCALES[language].money(figures(cents, language));
}

const MONTHS: Record<Language, string[]> = {
  de: [
    'Januar',
    'Februar',
    'März',
    'April',
    'Mai',
    'Juni',
    'Juli',
    'August',
    'September',
    'Oktober',
    'November',
    'Dezember',
  ],
  fr: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  nl: [
    'januari',
    'februari',
    'maart',
    'april',
    'mei',
    'juni',
    'juli',
    'augustus',
    'september',
    'oktober',
    'november',
    'december',
  ],
};

/** An ISO date written out: `17 février 2025`, `2. April 2025`. */
function dateInWords(iso: string, language: Language): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return `${day}${language === 'de' ? '.' : ''} ${MONTHS[language][month - 1]} ${year}`;
}

/** A line of goods or services: quantity, unit price in cents, VAT rate in percent. */
interface Item {
  text: string;
  quantity: number;
  unit: number;
  vat: number;
}

/** Net per item (rounded to cents), VAT per rate and the total, as a till or an invoicing program adds them. */
function totalsOf(items: readonly Item[], pricesIncludeVat: boolean) {
  const lines = items.map((item) => item.quantity * item.unit);
  const rates = [...new Set(items.map((item) => item.vat))].sort((a, b) => b - a);
  const byRate = rates.map((rate) => {
    const base = items.reduce((sum, item, i) => (item.vat === rate ? sum + lines[i]! : sum), 0);
    const vat = pricesIncludeVat ? base - Math.round(base / (1 + rate / 100)) : Math.round((base * rate) / 100);
    return { rate, base, vat };
  });
  const sum = lines.reduce((a, b) => a + b, 0);
  const vat = byRate.reduce((a, b) => a + b.vat, 0);
  return { lines, byRate, net: pricesIncludeVat ? sum - vat : sum, vat, total: pricesIncludeVat ? sum : sum + vat };
}

/** Everything a page prints besides its layout's captions. */
interface PageData {
  id: string;
  language: Language;
  issuer: string;
  /** The issuer's address lines. */
  address: string[];
  /** Tax or registration lines of the issuer: USt-IdNr., SIRET, KvK… */
  registration: string[];
  customer?: string[];
  /**
   * The name at the top is a logo (vector shapes, no text), as many letterheads print it: the name is in words only
   * in the small print, or in a captioned block.
   */
  logo?: boolean;
  number: string;
  date: string;
  items: Item[];
}

/** A page as pdfkit draws it, and its truth. */
export interface InvoicePage {
  id: string;
  language: Language;
  kind: 'invoice' | 'receipt';
  truth: InvoiceTruth;
  /** Draws the page; returns how far down it drew, in points. */
  draw: (doc: PDFKit.PDFDocument) => number;
  /** Page width in points. */
  width: number;
  /** Page height in points; a till roll's (none) is cut where the receipt ends. */
  height?: number;
}

const A4 = { width: 595.28, height: 841.89 };
/** An 80 mm till roll. */
const ROLL_WIDTH = 227;

/** A letterhead invoice: name and address top left, title and a caption: value block right, table, totals. */
interface LetterCaptions {
  title: string;
  number: string;
  date: string;
  /** The date printed in figures or in words. */
  dateStyle: 'figures' | 'words';
  customerNumber: [string, string];
  /** Captions of an issuer block and a customer block side by side (Émetteur, Destinataire), or none. */
  blocks?: [string, string];
  columns: [string, string, string, string, string];
  net: string;
  vat: (rate: number) => string;
  total: string;
  footer: string[];
}

/** A caption over a block of lines, from 150 pt down. */
function captionedBlock(doc: PDFKit.PDFDocument, caption: string, lines: readonly string[], x: number): void {
  doc.font('Helvetica-Bold').fontSize(9).text(caption, x, 150);
  doc.font('Helvetica').fontSize(10);
  lines.forEach((line, i) => {
    doc.text(line, x, 164 + i * 13);
  });
}

/** A letterhead's mark: a ring, a bar and a triangle in the firm's colour, no letters. */
function drawLogo(doc: PDFKit.PDFDocument, x: number, y: number): void {
  doc.save();
  doc
    .lineWidth(5)
    .strokeColor('#1f4e79')
    .circle(x + 18, y + 18, 15)
    .stroke();
  doc
    .fillColor('#1f4e79')
    .rect(x + 42, y + 4, 8, 30)
    .fill();
  doc
    .fillColor('#c0504d')
    .polygon([x + 58, y + 34], [x + 75, y + 4], [x + 92, y + 34])
    .fill();
  doc.restore();
}

function letterInvoice(data: PageData, captions: LetterCaptions): InvoicePage {
  const { language } = data;
  const sums = totalsOf(data.items, false);
  const draw = (doc: PDFKit.PDFDocument) => {
    if (data.logo) drawLogo(doc, 50, 45);
    else doc.font('Helvetica-Bold').fontSize(18).text(data.issuer, 50, 50);
    const blocks = captions.blocks;
    doc.font('Helvetica').fontSize(9);
    if (!blocks)
      data.address.forEach((line, i) => {
        doc.text(line, 50, 74 + i * 12);
      });
    doc.font('Helvetica-Bold').fontSize(22).text(captions.title, 380, 50);
    doc.font('Helvetica').fontSize(10);
    const meta: [string, string][] = [
      [captions.number, data.number],
      [
        captions.date,
        captions.dateStyle === 'words' ? dateInWords(data.date, language) : LOCALES[language].date(data.date),
      ],
      captions.customerNumber,
    ];
    meta.forEach(([caption, value], i) => {
      doc.text(caption, 380, 90 + i * 15);
      doc.text(value, 480, 90 + i * 15);
    });
    if (blocks) {
      captionedBlock(doc, blocks[0], [data.issuer, ...data.address], 50);
      captionedBlock(doc, blocks[1], data.customer ?? [], 320);
    } else
      data.customer?.forEach((line, i) => {
        doc.text(line, 50, 160 + i * 13);
      });
    tableOfItems(doc, data, captions.columns, sums.lines, 250);
    const y = 270 + data.items.length * 18 + 20;
    const rows: [string, number][] = [
      [captions.net, sums.net],
      ...sums.byRate.map((r): [string, number] => [captions.vat(r.rate), r.vat]),
    ];
    rows.forEach(([caption, cents], i) => {
      doc
        .font('Helvetica')
        .fontSize(10)
        .text(caption, 340, y + i * 16);
      doc.text(money(cents, language), 440, y + i * 16, { width: 100, align: 'right' });
    });
    const totalY = y + rows.length * 16 + 6;
    doc
      .moveTo(340, totalY - 3)
      .lineTo(540, totalY - 3)
      .stroke();
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(captions.total, 340, totalY + 2);
    doc.text(money(sums.total, language), 440, totalY + 2, { width: 100, align: 'right' });
    doc.font('Helvetica').fontSize(8);
    [...captions.footer, ...data.registration].forEach((line, i) => {
      doc.text(line, 50, 760 + i * 11);
    });
    return A4.height;
  };
  return { ...pageTruth(data, 'invoice', sums.total), draw, ...A4 };
}

/**
 * A window-envelope invoice (DIN 5008 and its neighbours): the sender on one small line above the addressee, the
 * issuer's name top right, the meta data as a row of captions over their values, the footer in three columns.
 */
interface WindowCaptions {
  title: string;
  /** Captions of the meta row, in order: number, date, and one more (customer or order). */
  row: [string, string, string];
  third: string;
  columns: [string, string, string, string, string];
  net: string;
  vat: (rate: number) => string;
  total: string;
  footer: [string[], string[]];
}

function windowInvoice(data: PageData, captions: WindowCaptions): InvoicePage {
  const { language } = data;
  const sums = totalsOf(data.items, false);
  const draw = (doc: PDFKit.PDFDocument) => {
    if (data.logo) drawLogo(doc, 453, 28);
    else doc.font('Helvetica-Bold').fontSize(16).text(data.issuer, 320, 45, { width: 225, align: 'right' });
    doc.font('Helvetica').fontSize(9);
    data.address.forEach((line, i) => {
      doc.text(line, 320, 66 + i * 11, { width: 225, align: 'right' });
    });
    doc.fontSize(7).text([data.issuer, ...data.address].join(' · '), 57, 130);
    doc.fontSize(10);
    data.customer?.forEach((line, i) => {
      doc.text(line, 57, 145 + i * 13);
    });
    doc.font('Helvetica-Bold').fontSize(16).text(captions.title, 57, 250);
    const values = [data.number, LOCALES[language].date(data.date), captions.third];
    captions.row.forEach((caption, i) => {
      doc
        .font('Helvetica')
        .fontSize(8)
        .text(caption, 57 + i * 120, 280);
      doc.fontSize(10).text(values[i]!, 57 + i * 120, 292);
    });
    tableOfItems(doc, data, captions.columns, sums.lines, 330);
    const y = 350 + data.items.length * 18 + 24;
    doc.font('Helvetica').fontSize(10).text(captions.net, 330, y);
    doc.text(money(sums.net, language), 440, y, { width: 100, align: 'right' });
    sums.byRate.forEach((r, i) => {
      doc.text(captions.vat(r.rate), 330, y + 16 + i * 16);
      doc.text(money(r.vat, language), 440, y + 16 + i * 16, { width: 100, align: 'right' });
    });
    const totalY = y + 16 + sums.byRate.length * 16 + 8;
    doc.font('Helvetica-Bold').fontSize(12).text(captions.total, 330, totalY);
    doc.text(money(sums.total, language), 440, totalY, { width: 100, align: 'right' });
    doc.font('Helvetica').fontSize(7);
    const columns = [[data.issuer, ...data.address], ...captions.footer, data.registration];
    columns.forEach((lines, c) => {
      lines.forEach((line, i) => {
        doc.text(line, 57 + c * 125, 770 + i * 9);
      });
    });
    return A4.height;
  };
  return { ...pageTruth(data, 'invoice', sums.total), draw, ...A4 };
}

function tableOfItems(
  doc: PDFKit.PDFDocument,
  data: PageData,
  columns: readonly string[],
  lines: readonly number[],
  top: number,
): void {
  const x = [50, 80, 330, 390, 470];
  doc.font('Helvetica-Bold').fontSize(9);
  columns.forEach((caption, i) => {
    doc.text(caption, x[i]!, top, i >= 2 ? { width: 70, align: 'right' } : {});
  });
  doc
    .moveTo(50, top + 13)
    .lineTo(545, top + 13)
    .stroke();
  doc.font('Helvetica').fontSize(9);
  data.items.forEach((item, r) => {
    const y = top + 20 + r * 18;
    const cells = [
      String(r + 1),
      item.text,
      String(item.quantity),
      figures(item.unit, data.language),
      figures(lines[r]!, data.language),
    ];
    cells.forEach((cell, i) => {
      doc.text(cell, x[i]!, y, i >= 2 ? { width: 70, align: 'right' } : {});
    });
  });
}

/** A till receipt on a roll: the shop centred on top, items and prices, the total, the payment, the VAT. */
interface ReceiptCaptions {
  /** A heading under the shop's address (Kassenbon, Ticket de caisse), or none. */
  heading?: string;
  total: string;
  payment: [string, string];
  change?: string;
  vatHeader: [string, string, string, string];
  /** The line with the date and the receipt's number, as the till prints it. */
  footer: (date: string, number: string) => string[];
  thanks: string;
  /** Where the date and number stand: at the bottom (a till), or at the top (a café's printer). */
  metaOnTop?: boolean;
}

function tillReceipt(data: PageData, captions: ReceiptCaptions, paid: number): InvoicePage {
  const { language } = data;
  const sums = totalsOf(data.items, true);
  const draw = (doc: PDFKit.PDFDocument) => {
    const width = 207;
    let y = 16;
    const line = (left: string, right?: string, bold = false) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 10 : 8);
      doc.text(left, 10, y, { width: right ? 140 : width });
      if (right) doc.text(right, 10, y, { width, align: 'right' });
      y += bold ? 14 : 11;
    };
    const centred = (text: string, size: number, bold = false) => {
      doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(size)
        .text(text, 10, y, { width, align: 'center' });
      y += size + 3;
    };
    const meta = captions.footer(LOCALES[language].date(data.date), data.number);
    centred(data.issuer, 13, true);
    for (const address of data.address) centred(address, 8);
    if (captions.heading) centred(captions.heading, 9, true);
    y += 6;
    if (captions.metaOnTop) {
      for (const text of meta) line(text);
      y += 4;
    }
    data.items.forEach((item, i) => {
      line(
        item.quantity > 1 ? `${item.quantity} x ${item.text}` : item.text,
        `${figures(sums.lines[i]!, language)} ${String.fromCharCode(65 + sums.byRate.findIndex((r) => r.rate === item.vat))}`,
      );
    });
    y += 4;
    line(captions.total, figures(sums.total, language), true);
    line(captions.payment[0], figures(paid, language));
    if (captions.change) line(captions.change, figures(paid - sums.total, language));
    y += 6;
    doc.font('Helvetica').fontSize(7);
    const [rate, net, vat, gross] = captions.vatHeader;
    line(`${rate}      ${net}      ${vat}      ${gross}`);
    sums.byRate.forEach((r, i) => {
      line(
        `${String.fromCharCode(65 + i)} ${String(r.rate).replace('.', ',')}%   ${figures(r.base - r.vat, language)}   ${figures(r.vat, language)}   ${figures(r.base, language)}`,
      );
    });
    y += 6;
    if (!captions.metaOnTop) for (const text of meta) line(text);
    for (const text of data.registration) line(text);
    y += 4;
    centred(captions.thanks, 8);
    doc.fontSize(7).text(captions.payment[1], 10, y, { width, align: 'center' });
    return y + 10;
  };
  return { ...pageTruth(data, 'receipt', sums.total), draw, width: ROLL_WIDTH };
}

function pageTruth(data: PageData, kind: InvoicePage['kind'], total: number) {
  return {
    id: data.id,
    language: data.language,
    kind,
    truth: { issuer: data.issuer, invoice_number: data.number, invoice_date: data.date, total_amount: total / 100 },
  };
}

const deVat = (rate: number) => `zzgl. MwSt. ${rate} %`;
const frVat = (rate: number) => `TVA ${rate},0 %`;
const nlVat = (rate: number) => `BTW ${rate}%`;

/** The twelve pages: per language two invoices and two receipts. */
export const INVOICE_PAGES: readonly InvoicePage[] = [
  letterInvoice(
    {
      id: 'de-rechnung-brandt',
      language: 'de',
      issuer: 'Brandt Haustechnik GmbH',
      address: ['Schillerstraße 41', '70173 Stuttgart', 'Tel. 0711 2294410'],
      registration: ['USt-IdNr. DE284117305 · Amtsgericht Stuttgart HRB 731442'],
      customer: ['Praxis Dr. Anja Keller', 'Königstraße 12', '70173 Stuttgart'],
      number: 'RE-2025-0412',
      date: '2025-03-12',
      items: [
        { text: 'Wartung Gasbrennwertkessel', quantity: 1, unit: 18900, vat: 19 },
        { text: 'Dichtungssatz Brenner', quantity: 2, unit: 2450, vat: 19 },
        { text: 'Arbeitszeit Techniker (Std.)', quantity: 3, unit: 6800, vat: 19 },
        { text: 'Anfahrtspauschale', quantity: 1, unit: 3900, vat: 19 },
      ],
    },
    {
      title: 'RECHNUNG',
      number: 'Rechnungsnummer:',
      date: 'Rechnungsdatum:',
      dateStyle: 'figures',
      customerNumber: ['Kundennummer:', 'K-10233'],
      columns: ['Pos.', 'Beschreibung', 'Menge', 'Einzelpreis', 'Gesamt'],
      net: 'Nettobetrag',
      vat: deVat,
      total: 'Gesamtbetrag',
      footer: [
        'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
        'Kreissparkasse Stuttgart · IBAN DE12 6005 0101 0004 4412 88',
      ],
    },
  ),
  windowInvoice(
    {
      id: 'de-rechnung-lindner',
      language: 'de',
      issuer: 'Lindner & Söhne Druckerei KG',
      logo: true,
      address: ['Am Hafen 7', '28217 Bremen'],
      registration: ['USt-IdNr. DE193350712', 'Steuernr. 60/145/01873'],
      customer: ['Weserblick Hotel GmbH', 'z. Hd. Frau Brigitte Aust', 'Schlachte 30', '28195 Bremen'],
      number: '2025/118',
      date: '2025-02-03',
      items: [
        { text: 'Visitenkarten 4/4-farbig, 500 Stk.', quantity: 4, unit: 3990, vat: 19 },
        { text: 'Briefbogen DIN A4, 1.000 Stk.', quantity: 2, unit: 14250, vat: 19 },
        { text: 'Hausprospekt 16 Seiten', quantity: 1, unit: 112000, vat: 19 },
      ],
    },
    {
      title: 'Rechnung',
      row: ['Rechnung Nr.', 'Datum', 'Ihre Bestellung'],
      third: 'B-5521 vom 20.01.2025',
      columns: ['Pos.', 'Artikel', 'Anzahl', 'Preis', 'Betrag'],
      net: 'Summe netto',
      vat: (rate) => `MwSt. ${rate} %`,
      total: 'Rechnungsbetrag',
      footer: [
        ['Sparkasse Bremen', 'IBAN DE44 2905 0101 0001 2233 44', 'BIC SBREDE22XXX'],
        ['Geschäftsführer: Hans Lindner', 'Amtsgericht Bremen HRA 22104'],
      ],
    },
  ),
  tillReceipt(
    {
      id: 'de-kassenbon-frischmarkt',
      language: 'de',
      issuer: 'Frischmarkt Weber',
      address: ['Bahnhofstraße 18', '91052 Erlangen'],
      registration: ['St.-Nr. 216/123/45678'],
      number: '4711',
      date: '2025-03-14',
      items: [
        { text: 'Vollmilch 3,5% 1L', quantity: 2, unit: 119, vat: 7 },
        { text: 'Bio Bananen', quantity: 1, unit: 249, vat: 7 },
        { text: 'Roggenbrot 750g', quantity: 1, unit: 329, vat: 7 },
        { text: 'Spülmittel Zitrone', quantity: 1, unit: 145, vat: 19 },
        { text: 'Pfand', quantity: 6, unit: 25, vat: 19 },
        { text: 'Gouda mittelalt', quantity: 1, unit: 389, vat: 7 },
      ],
    },
    {
      heading: 'Kassenbon',
      total: 'SUMME EUR',
      payment: ['Bar', 'Vielen Dank für Ihren Einkauf'],
      change: 'Rückgeld',
      vatHeader: ['MwSt', 'Netto', 'Steuer', 'Brutto'],
      footer: (date, number) => [`${date} 18:42   Kasse 2   Bon-Nr. ${number}`],
      thanks: 'Bitte Bon aufbewahren',
    },
    3000,
  ),
  tillReceipt(
    {
      id: 'de-quittung-cafe-ludwig',
      language: 'de',
      issuer: 'Café Ludwig',
      address: ['Ludwigstraße 3', '80539 München'],
      registration: ['USt-IdNr. DE301188245'],
      number: '20250221-0087',
      date: '2025-02-21',
      items: [
        { text: 'Cappuccino', quantity: 2, unit: 390, vat: 19 },
        { text: 'Apfelstrudel', quantity: 1, unit: 540, vat: 19 },
        { text: 'Mineralwasser 0,5l', quantity: 1, unit: 320, vat: 19 },
      ],
    },
    {
      total: 'Summe',
      payment: ['EC-Karte', 'Es bediente Sie: Martina'],
      vatHeader: ['MwSt', 'Netto', 'MwSt', 'Brutto'],
      footer: (date, number) => [`Beleg-Nr. ${number}`, `Datum: ${date}  14:05`, 'Tisch 12'],
      thanks: 'Vielen Dank für Ihren Besuch!',
      metaOnTop: true,
    },
    1640,
  ),
  letterInvoice(
    {
      id: 'fr-facture-atelier-morel',
      language: 'fr',
      issuer: 'Atelier Morel SARL',
      address: ['12 rue des Tanneurs', '69002 Lyon', 'Tél. 04 78 42 19 03'],
      registration: ['SIRET 812 447 350 00021 · TVA intracommunautaire FR42 812447350', 'RCS Lyon B 812 447 350'],
      customer: ['Boulangerie Dufour', '4 place Bellecour', '69002 Lyon'],
      number: 'F2025-0087',
      date: '2025-03-05',
      items: [
        { text: 'Enseigne lumineuse sur mesure', quantity: 1, unit: 98000, vat: 20 },
        { text: 'Pose et raccordement', quantity: 1, unit: 21000, vat: 20 },
        { text: 'Déplacement', quantity: 1, unit: 4500, vat: 20 },
      ],
    },
    {
      title: 'FACTURE',
      number: 'Facture N°',
      date: 'Date',
      dateStyle: 'figures',
      customerNumber: ['Client', 'C-0192'],
      columns: ['N°', 'Désignation', 'Qté', 'Prix unit. HT', 'Montant HT'],
      net: 'Total HT',
      vat: frVat,
      total: 'Total TTC',
      footer: [
        'Paiement à 30 jours. Pénalités de retard : 3 fois le taux d’intérêt légal.',
        'IBAN FR76 3000 4008 2800 0123 4567 890',
      ],
    },
  ),
  letterInvoice(
    {
      id: 'fr-facture-girard',
      language: 'fr',
      issuer: 'Cabinet Girard Conseil',
      logo: true,
      address: ['48 boulevard Haussmann', '75009 Paris'],
      registration: ['SIRET 498 120 774 00035', 'N° TVA FR19 498120774'],
      customer: ['SAS Lumière Verte', '17 avenue Jean Jaurès', '33000 Bordeaux'],
      number: '2025-118',
      date: '2025-02-17',
      items: [
        { text: 'Mission de conseil – février 2025', quantity: 4, unit: 65000, vat: 20 },
        { text: 'Frais de déplacement', quantity: 1, unit: 31240, vat: 20 },
      ],
    },
    {
      title: 'Facture',
      number: 'Facture n° :',
      date: 'Date de facturation :',
      dateStyle: 'words',
      customerNumber: ['Échéance :', '19/03/2025'],
      blocks: ['Émetteur', 'Destinataire'],
      columns: ['#', 'Description', 'Quantité', 'P.U. HT', 'Total HT'],
      net: 'Montant HT',
      vat: (rate) => `TVA (${rate} %)`,
      total: 'Net à payer',
      footer: [
        'Règlement par virement à réception de facture.',
        'Banque Populaire · IBAN FR76 1020 7000 2604 0412 3456 789',
      ],
    },
  ),
  tillReceipt(
    {
      id: 'fr-ticket-marche-plus',
      language: 'fr',
      issuer: 'Marché Plus Nantes',
      address: ['23 rue de Strasbourg', '44000 Nantes'],
      registration: ['SIRET 752 316 901 00014'],
      number: '0042-118',
      date: '2025-03-08',
      items: [
        { text: 'Baguette tradition', quantity: 2, unit: 120, vat: 5.5 },
        { text: 'Comté 18 mois 250g', quantity: 1, unit: 645, vat: 5.5 },
        { text: 'Pommes Gala 1kg', quantity: 1, unit: 289, vat: 5.5 },
        { text: 'Lessive liquide', quantity: 1, unit: 899, vat: 20 },
        { text: 'Sac cabas', quantity: 1, unit: 12, vat: 20 },
      ],
    },
    {
      heading: 'TICKET DE CAISSE',
      total: 'Total à payer',
      payment: ['CB', 'Merci de votre visite'],
      vatHeader: ['TVA', 'HT', 'TVA', 'TTC'],
      footer: (date, number) => [`Le ${date} à 11:02`, `Ticket n° ${number}   Caisse 04`],
      thanks: 'A bientôt !',
    },
    2005,
  ),
  tillReceipt(
    {
      id: 'fr-note-boulangerie',
      language: 'fr',
      issuer: 'Boulangerie du Marché',
      address: ['5 place du Marché', '13100 Aix-en-Provence'],
      registration: ['SIRET 433 902 118 00019'],
      number: '1187',
      date: '2025-04-02',
      items: [
        { text: 'Croissant', quantity: 3, unit: 110, vat: 5.5 },
        { text: 'Pain au chocolat', quantity: 2, unit: 125, vat: 5.5 },
        { text: 'Café allongé', quantity: 2, unit: 220, vat: 10 },
        { text: 'Tarte aux fraises', quantity: 1, unit: 390, vat: 5.5 },
      ],
    },
    {
      total: 'TOTAL TTC',
      payment: ['Espèces', 'À bientôt'],
      change: 'Rendu',
      vatHeader: ['Taux', 'HT', 'TVA', 'TTC'],
      footer: (date, number) => [`Date : ${date} 08:17`, `Ticket : ${number}`],
      thanks: 'Merci et bonne journée !',
      metaOnTop: true,
    },
    2000,
  ),
  letterInvoice(
    {
      id: 'nl-factuur-van-dijk',
      language: 'nl',
      issuer: 'Van Dijk Installatietechniek B.V.',
      address: ['Industrieweg 14', '3542 AD Utrecht', 'Tel. 030 241 88 90'],
      registration: ['KvK 30198874 · BTW NL812447350B01', 'IBAN NL91 ABNA 0417 1643 00'],
      customer: ['Bakkerij De Molen', 'Voorstraat 88', '3512 AR Utrecht'],
      number: '2025-0034',
      date: '2025-03-14',
      items: [
        { text: 'Onderhoud cv-ketel', quantity: 1, unit: 12500, vat: 21 },
        { text: 'Vervangen expansievat', quantity: 1, unit: 18950, vat: 21 },
        { text: 'Arbeidsloon (uur)', quantity: 5, unit: 6200, vat: 21 },
        { text: 'Voorrijkosten', quantity: 1, unit: 3550, vat: 21 },
      ],
    },
    {
      title: 'FACTUUR',
      number: 'Factuurnummer:',
      date: 'Factuurdatum:',
      dateStyle: 'figures',
      customerNumber: ['Klantnummer:', '4410'],
      columns: ['Nr.', 'Omschrijving', 'Aantal', 'Prijs', 'Bedrag'],
      net: 'Subtotaal',
      vat: nlVat,
      total: 'Totaal',
      footer: ['Wij verzoeken u het bedrag binnen 30 dagen over te maken.'],
    },
  ),
  windowInvoice(
    {
      id: 'nl-factuur-de-vries',
      language: 'nl',
      issuer: 'De Vries Grafisch Ontwerp',
      logo: true,
      address: ['Oudegracht 201', '3511 NG Utrecht'],
      registration: ['KvK 71820933', 'BTW-id NL002231877B44'],
      customer: ['Stichting Buurthuis Oost', 't.a.v. mevrouw J. Bakker', 'Lange Nieuwstraat 9', '3512 PA Utrecht'],
      number: 'F-8812',
      date: '2025-04-02',
      items: [
        { text: 'Ontwerp jaarverslag', quantity: 1, unit: 145000, vat: 21 },
        { text: 'Drukproeven', quantity: 3, unit: 2750, vat: 21 },
        { text: 'Fotografie (dagdeel)', quantity: 2, unit: 39500, vat: 21 },
      ],
    },
    {
      title: 'Factuur',
      row: ['Factuur nr.', 'Datum', 'Vervaldatum'],
      third: '02-05-2025',
      columns: ['#', 'Omschrijving', 'Aantal', 'Tarief', 'Totaal'],
      net: 'Totaal excl. btw',
      vat: (rate) => `Btw ${rate}%`,
      total: 'Te betalen',
      footer: [['Rabobank', 'IBAN NL20 RABO 0312 4455 66', 'BIC RABONL2U'], ['Betaaltermijn 30 dagen']],
    },
  ),
  tillReceipt(
    {
      id: 'nl-kassabon-buurtsuper',
      language: 'nl',
      issuer: 'Buurtsuper Jansen',
      address: ['Dorpsstraat 56', '1621 BN Hoorn'],
      registration: ['BTW NL001234567B01'],
      number: '3312',
      date: '2025-03-11',
      items: [
        { text: 'Halfvolle melk 1L', quantity: 2, unit: 115, vat: 9 },
        { text: 'Goudse kaas jong 500g', quantity: 1, unit: 549, vat: 9 },
        { text: 'Volkorenbrood', quantity: 1, unit: 279, vat: 9 },
        { text: 'Afwasmiddel', quantity: 1, unit: 189, vat: 21 },
        { text: 'Tulpen bos', quantity: 1, unit: 499, vat: 9 },
      ],
    },
    {
      heading: 'KASSABON',
      total: 'TOTAAL',
      payment: ['PIN', 'Bedankt en tot ziens'],
      vatHeader: ['BTW', 'Excl.', 'BTW', 'Incl.'],
      footer: (date, number) => [`Datum ${date} 14:07`, `Bon ${number}   Kassa 1`],
      thanks: 'Bewaar uw kassabon',
    },
    1746,
  ),
  tillReceipt(
    {
      id: 'nl-bon-eetcafe-de-hoek',
      language: 'nl',
      issuer: 'Eetcafé De Hoek',
      address: ['Grote Markt 2', '9711 LV Groningen'],
      registration: ['KvK 02087731'],
      number: '5521',
      date: '2025-01-24',
      items: [
        { text: 'Uitsmijter ham/kaas', quantity: 1, unit: 1150, vat: 9 },
        { text: 'Tosti', quantity: 1, unit: 650, vat: 9 },
        { text: 'Verse muntthee', quantity: 2, unit: 375, vat: 9 },
        { text: 'Speciaalbier', quantity: 1, unit: 595, vat: 21 },
      ],
    },
    {
      total: 'Totaal',
      payment: ['Contant', 'Graag tot ziens!'],
      change: 'Wisselgeld',
      vatHeader: ['BTW', 'Excl.', 'BTW', 'Incl.'],
      footer: (date, number) => [`Bonnummer: ${number}`, `${date}  19:32   Tafel 7`],
      thanks: 'Bedankt voor uw bezoek',
      metaOnTop: true,
    },
    4000,
  ),
];

/** A fixed creation date: the same page makes the same bytes. */
const CREATED = new Date(Date.UTC(2025, 3, 1));

/** The page as a one-page PDF with a text layer; a till roll is drawn once on a long strip to find its length. */
export async function renderInvoicePage(page: InvoicePage): Promise<Buffer> {
  let height = page.height;
  if (height === undefined) {
    const strip = new PDFDocument({ size: [page.width, 2000], margin: 0 });
    height = page.draw(strip) + 16;
    strip.end();
  }
  return drawPdf(page, [page.width, height]);
}

function drawPdf(page: InvoicePage, size: [number, number]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size,
      margin: 0,
      compress: false,
      info: { Title: page.id, Producer: 'docbench test fixture', Creator: 'docbench', CreationDate: CREATED },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    page.draw(doc);
    doc.end();
  });
}

/** Writes every page as a docbench dataset into `dir` (documents/, schema.json, truth/, dataset.json, schema.<language>.json). */
export async function writeInvoicesDataset(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'documents'), { recursive: true });
  await mkdir(path.join(dir, 'truth'), { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(path.join(dir, 'schema.json'), json(INVOICES_SCHEMA));
  await writeFile(
    path.join(dir, 'dataset.json'),
    json({
      name: 'invoices-de-fr-nl',
      version: '1',
      description:
        'Made-up invoices and receipts in German, French and Dutch (test/local-engine/invoices-de-fr-nl.ts).',
      locale: 'EU',
      comparators: INVOICES_COMPARATORS,
      documents: INVOICE_PAGES.map((page) => ({
        id: page.id,
        file: `documents/${page.id}.pdf`,
        tags: { language: page.language, kind: page.kind },
      })),
    }),
  );
  for (const language of LANGUAGES)
    await writeFile(path.join(dir, `schema.${language}.json`), json(nativeSchema(NATIVE_NAMES[language])));
  for (const page of INVOICE_PAGES) {
    await writeFile(path.join(dir, 'documents', `${page.id}.pdf`), await renderInvoicePage(page));
    await writeFile(path.join(dir, 'truth', `${page.id}.json`), json(page.truth));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: npx tsx test/local-engine/invoices-de-fr-nl.ts <dataset dir>');
  await writeInvoicesDataset(dir);
}
