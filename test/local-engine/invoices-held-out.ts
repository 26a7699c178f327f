/**
 * HELD-OUT invoices and receipts in German, French, Dutch, Spanish and Italian (docs/multilingual-pages.md).
 *
 * Written on 2026-12-07 by a helper session (an AI assistant) that had not seen the engine, WITHOUT reading the local
 * engine's lexicon (packages/local-engine/src/lexicon/), its rules, its source, the earlier language pages
 * (test/local-engine/invoices-de-fr-nl*), docs/multilingual-pages.md, bench/paraphrases/ or bench/field-roles/.
 * The captions, date and amount formats and distractors below come from how businesses in each country print
 * their invoices and receipts, not from what the engine knows. Pages and truth were committed before the engine
 * was run on them; after that, a page may only change to fix a truth error (truth not matching the print), and
 * such a change must say so in its commit. Never change a page's wording or layout to move the engine's score.
 *
 * Twenty made-up single-page PDFs, four per language: a letterhead invoice with a meta block on the right, a
 * window-envelope invoice with a row of captions over values, a till receipt (narrow, monospace), and a restaurant
 * bill or a tradesman/service invoice. Every company, address, number, VAT id and IBAN is invented.
 *
 * Truth is exactly what is printed: the issuer as printed in the heading, the number as printed, the date as ISO
 * and the total as a number; `printed` holds the date and total as they appear on the page, so the fixture's own
 * test (invoices-held-out.test.ts) can check that each truth value is in the page's text layer.
 */
import PDFDocument from 'pdfkit';

export const HELD_OUT_LANGUAGES = ['de', 'fr', 'nl', 'es', 'it'] as const;
export type HeldOutLanguage = (typeof HELD_OUT_LANGUAGES)[number];

export const HELD_OUT_FIELDS = ['issuer', 'invoice_number', 'invoice_date', 'total_amount'] as const;
export type HeldOutField = (typeof HELD_OUT_FIELDS)[number];

export interface HeldOutTruth {
  /** The issuer's name as printed in the letterhead or heading. */
  issuer: string;
  /** The invoice or receipt number exactly as printed. */
  invoice_number: string;
  /** The issue date, ISO yyyy-mm-dd. */
  invoice_date: string;
  /** The total to pay, taxes included. */
  total_amount: number;
}

/** One run of text: `y` is the baseline from the top; `x` is the left edge, or the right edge / centre. */
export interface PageRun {
  x: number;
  y: number;
  text: string;
  size: number;
  bold?: boolean;
  mono?: boolean;
  align?: 'left' | 'right' | 'center';
  grey?: boolean;
}

export interface PageRule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width?: number;
}

export type PageKind = 'letterhead' | 'caption-row' | 'till-receipt' | 'restaurant' | 'service';

export interface HeldOutPage {
  id: string;
  language: HeldOutLanguage;
  kind: PageKind;
  truth: HeldOutTruth;
  /** The date and the total exactly as printed on the page (truth gives them as ISO date and number). */
  printed: { invoice_date: string; total_amount: string };
  /** Page size in points. */
  size: [number, number];
  runs: PageRun[];
  rules: PageRule[];
}

/** Field names and descriptions as a user writing in the language would put them in a JSON Schema. */
export const HELD_OUT_NATIVE_NAMES: Record<
  HeldOutLanguage,
  Record<HeldOutField, { name: string; description: string }>
> = {
  de: {
    issuer: {
      name: 'aussteller',
      description: 'Name des Unternehmens, das die Rechnung oder den Kassenbon ausgestellt hat',
    },
    invoice_number: { name: 'rechnungsnummer', description: 'Nummer der Rechnung oder des Kassenbons' },
    invoice_date: {
      name: 'rechnungsdatum',
      description: 'Datum, an dem die Rechnung oder der Kassenbon ausgestellt wurde',
    },
    total_amount: { name: 'gesamtbetrag', description: 'Zu zahlender Gesamtbetrag einschließlich Steuern' },
  },
  fr: {
    issuer: { name: 'emetteur', description: "Nom de l'entreprise qui a émis la facture ou le ticket de caisse" },
    invoice_number: { name: 'numero_facture', description: 'Numéro de la facture ou du ticket de caisse' },
    invoice_date: { name: 'date_facture', description: "Date d'émission de la facture ou du ticket de caisse" },
    total_amount: { name: 'montant_total', description: 'Montant total à payer, toutes taxes comprises' },
  },
  nl: {
    issuer: { name: 'leverancier', description: 'Naam van het bedrijf dat de factuur of kassabon heeft uitgegeven' },
    invoice_number: { name: 'factuurnummer', description: 'Nummer van de factuur of kassabon' },
    invoice_date: { name: 'factuurdatum', description: 'Datum waarop de factuur of kassabon is uitgegeven' },
    total_amount: { name: 'totaalbedrag', description: 'Totaal te betalen bedrag, inclusief btw' },
  },
  es: {
    issuer: { name: 'emisor', description: 'Nombre de la empresa que emitió la factura o el tique' },
    invoice_number: { name: 'numero_factura', description: 'Número de la factura o del tique' },
    invoice_date: { name: 'fecha_factura', description: 'Fecha en que se emitió la factura o el tique' },
    total_amount: { name: 'importe_total', description: 'Importe total a pagar, impuestos incluidos' },
  },
  it: {
    issuer: { name: 'emittente', description: "Nome dell'azienda che ha emesso la fattura o lo scontrino" },
    invoice_number: { name: 'numero_fattura', description: 'Numero della fattura o dello scontrino' },
    invoice_date: { name: 'data_fattura', description: 'Data di emissione della fattura o dello scontrino' },
    total_amount: { name: 'importo_totale', description: 'Importo totale da pagare, IVA inclusa' },
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Layout helpers
// ---------------------------------------------------------------------------------------------------------------

const A4: [number, number] = [595.28, 841.89];
const LEFT = 56;
const RIGHT = 539;

type Style = Partial<Omit<PageRun, 'x' | 'y' | 'text'>>;

function t(x: number, y: number, text: string, style: Style = {}): PageRun {
  return { x, y, text, size: 9, ...style };
}

/** Lines one under the other from baseline `y`. */
function stack(x: number, y: number, leading: number, texts: readonly string[], style: Style = {}): PageRun[] {
  return texts.map((text, i) => t(x, y + i * leading, text, style));
}

interface Column {
  x: number;
  align?: 'left' | 'right' | 'center';
}

/** Table rows: each row's cells placed at the columns' x (empty cells are skipped). */
function rows(
  columns: readonly Column[],
  y: number,
  leading: number,
  cells: readonly (readonly string[])[],
  style: Style = {},
): PageRun[] {
  const runs: PageRun[] = [];
  cells.forEach((row, i) => {
    row.forEach((text, c) => {
      const column = columns[c];
      if (!column || text === '') return;
      runs.push(t(column.x, y + i * leading, text, { align: column.align ?? 'left', ...style }));
    });
  });
  return runs;
}

/** Caption on the left, value right-aligned at `right`, one pair per line. */
function pairs(
  xCaption: number,
  right: number,
  y: number,
  leading: number,
  items: readonly (readonly [string, string])[],
  style: Style = {},
): PageRun[] {
  return items.flatMap(([caption, value], i) => [
    t(xCaption, y + i * leading, caption, style),
    t(right, y + i * leading, value, { ...style, align: 'right' }),
  ]);
}

function hr(y: number, x1 = LEFT, x2 = RIGHT, width = 0.6): PageRule {
  return { x1, y1: y, x2, y2: y, width };
}

// Till receipts: 80 mm paper, Courier, 40 characters a line.
const RECEIPT_WIDTH = 226.77;
const RECEIPT_CHARS = 40;
const RECEIPT_SIZE = 8;
const RECEIPT_LEADING = 10.5;
const RECEIPT_MARGIN = (RECEIPT_WIDTH - RECEIPT_CHARS * RECEIPT_SIZE * 0.6) / 2;

/** Left text and right text on one monospace line of `RECEIPT_CHARS` characters. */
function lr(left: string, right: string, width = RECEIPT_CHARS): string {
  return `${left}${' '.repeat(Math.max(1, width - left.length - right.length))}${right}`;
}

/** Columns of a monospace line: each cell right-aligned to its end column, the first left-aligned. */
function cols(cells: readonly string[], ends: readonly number[]): string {
  let line = cells[0] ?? '';
  for (let i = 1; i < cells.length; i++) {
    const end = ends[i] ?? RECEIPT_CHARS;
    const cell = cells[i] ?? '';
    line += ' '.repeat(Math.max(1, end - line.length - cell.length)) + cell;
  }
  return line;
}

type ReceiptLine = string | { text: string; center?: boolean; bold?: boolean; big?: boolean };

/** A till receipt: monospace lines from the top; '' is a blank line. */
function receipt(lines: readonly ReceiptLine[]): { size: [number, number]; runs: PageRun[] } {
  const top = 34;
  const runs: PageRun[] = [];
  let y = top;
  for (const line of lines) {
    const spec = typeof line === 'string' ? { text: line } : line;
    if (spec.text !== '') {
      const size = spec.big ? RECEIPT_SIZE + 2 : RECEIPT_SIZE;
      runs.push(
        spec.center
          ? t(RECEIPT_WIDTH / 2, y, spec.text, { size, mono: true, bold: spec.bold, align: 'center' })
          : t(RECEIPT_MARGIN, y, spec.text, { size, mono: true, bold: spec.bold }),
      );
    }
    y += spec.big ? RECEIPT_LEADING + 3 : RECEIPT_LEADING;
  }
  return { size: [RECEIPT_WIDTH, Math.ceil(y + 30)], runs };
}

const c = (text: string, style: { bold?: boolean; big?: boolean } = {}): ReceiptLine => ({
  text,
  center: true,
  ...style,
});
const dashes = '-'.repeat(RECEIPT_CHARS);
/** A bold line two points larger (a total): 32 characters fill the same width as 40 small ones. */
const big = (left: string, right: string): ReceiptLine => ({ text: lr(left, right, 32), bold: true, big: true });

// Narrow proportional bills (restaurant printers with a proportional font), 80 mm wide.
const BILL_LEFT = 14;
const BILL_RIGHT = RECEIPT_WIDTH - 14;
const BILL_MID = RECEIPT_WIDTH / 2;

// ---------------------------------------------------------------------------------------------------------------
// German
// ---------------------------------------------------------------------------------------------------------------

const deLetterhead: HeldOutPage = {
  id: 'de-letterhead-elektro',
  language: 'de',
  kind: 'letterhead',
  truth: {
    issuer: 'Elektro Brandt GmbH',
    invoice_number: 'RE-2025-0418',
    invoice_date: '2025-03-12',
    total_amount: 2361.91,
  },
  printed: { invoice_date: '12.03.2025', total_amount: '2.361,91 €' },
  size: A4,
  rules: [hr(133, LEFT, 300, 0.4), hr(352), hr(438), hr(484, 350, RIGHT), hr(488, 350, RIGHT)],
  runs: [
    t(LEFT, 64, 'Elektro Brandt GmbH', { size: 20, bold: true }),
    t(LEFT, 80, 'Meisterbetrieb für Elektrotechnik · Installation · Service', { size: 9 }),
    ...stack(
      RIGHT,
      52,
      11,
      ['Gewerbestraße 14', '33602 Bielefeld', 'Telefon 0521 98 44 17-0', 'info@elektro-brandt.de'],
      {
        size: 8.5,
        align: 'right',
      },
    ),
    t(LEFT, 130, 'Elektro Brandt GmbH · Gewerbestraße 14 · 33602 Bielefeld', { size: 6.5 }),
    ...stack(LEFT, 152, 13, ['Wohnbau Lindner KG', 'z. Hd. Frau Sabine Körber', 'Am Stadtholz 8', '33609 Bielefeld'], {
      size: 10,
    }),
    ...pairs(
      340,
      RIGHT,
      152,
      14,
      [
        ['Rechnungsnummer', 'RE-2025-0418'],
        ['Rechnungsdatum', '12.03.2025'],
        ['Leistungszeitraum', '03.03.–07.03.2025'],
        ['Kundennummer', '10233'],
        ['Ihr Auftrag vom', '24.02.2025'],
        ['Ansprechpartner', 'Herr Dietz'],
      ],
      { size: 9 },
    ),
    t(LEFT, 285, 'Rechnung', { size: 15, bold: true }),
    t(LEFT, 310, 'Sehr geehrte Damen und Herren,', { size: 10 }),
    t(LEFT, 324, 'für die im Objekt Am Stadtholz 8 ausgeführten Elektroarbeiten berechnen wir Ihnen:', { size: 10 }),
    ...rows(
      [
        { x: LEFT },
        { x: 84 },
        { x: 370, align: 'right' },
        { x: 378 },
        { x: 470, align: 'right' },
        { x: RIGHT, align: 'right' },
      ],
      347,
      16,
      [['Pos.', 'Bezeichnung', 'Menge', 'Einheit', 'Einzelpreis €', 'Gesamt €']],
      { size: 8.5, bold: true },
    ),
    ...rows(
      [
        { x: LEFT },
        { x: 84 },
        { x: 370, align: 'right' },
        { x: 378 },
        { x: 470, align: 'right' },
        { x: RIGHT, align: 'right' },
      ],
      368,
      17,
      [
        ['1', 'Unterverteilung UV-2 montiert und verdrahtet', '1', 'Stk', '684,00', '684,00'],
        ['2', 'Mantelleitung NYM-J 5x2,5 mm² verlegt', '48', 'm', '4,35', '208,80'],
        ['3', 'FI-Schutzschalter 40 A / 30 mA', '2', 'Stk', '96,50', '193,00'],
        ['4', 'Arbeitszeit Elektroinstallateur', '14,5', 'Std', '62,00', '899,00'],
      ],
      { size: 9 },
    ),
    ...pairs(
      350,
      RIGHT,
      456,
      14,
      [
        ['Nettobetrag', '1.984,80 €'],
        ['zzgl. 19 % USt.', '377,11 €'],
      ],
      { size: 9 },
    ),
    ...pairs(350, RIGHT, 502, 14, [['Rechnungsbetrag', '2.361,91 €']], { size: 10, bold: true }),
    t(LEFT, 545, 'Bitte überweisen Sie den Rechnungsbetrag ohne Abzug bis zum 26.03.2025 unter Angabe der', {
      size: 9.5,
    }),
    t(LEFT, 558, 'Rechnungsnummer. Leistungsort: Am Stadtholz 8, 33609 Bielefeld.', { size: 9.5 }),
    t(LEFT, 590, 'Mit freundlichen Grüßen', { size: 9.5 }),
    t(LEFT, 604, 'Elektro Brandt GmbH', { size: 9.5 }),
    ...stack(LEFT, 778, 9, ['Elektro Brandt GmbH', 'Gewerbestraße 14', '33602 Bielefeld'], { size: 7, grey: true }),
    ...stack(
      220,
      778,
      9,
      ['Geschäftsführer: Jörg Brandt', 'Amtsgericht Bielefeld HRB 41872', 'USt-IdNr. DE287614409'],
      {
        size: 7,
        grey: true,
      },
    ),
    ...stack(390, 778, 9, ['Sparkasse Bielefeld', 'IBAN DE44 4805 0161 0043 2187 95', 'BIC SPBIDE3BXXX'], {
      size: 7,
      grey: true,
    }),
  ],
};

const deCaptionRowColumns: Column[] = [{ x: LEFT }, { x: 140 }, { x: 222 }, { x: 298 }, { x: 380 }, { x: 480 }];
const deItemColumns: Column[] = [
  { x: LEFT },
  { x: 104 },
  { x: 366, align: 'right' },
  { x: 374 },
  { x: 472, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const deCaptionRow: HeldOutPage = {
  id: 'de-caption-row-papier',
  language: 'de',
  kind: 'caption-row',
  truth: {
    issuer: 'Papierhaus Nordlicht GmbH & Co. KG',
    invoice_number: '2025/30712',
    invoice_date: '2025-02-05',
    total_amount: 789.09,
  },
  printed: { invoice_date: '05.02.2025', total_amount: 'EUR 789,09' },
  size: A4,
  rules: [hr(270), hr(300), hr(336), hr(414), hr(478, 350, RIGHT)],
  runs: [
    t(RIGHT, 60, 'Papierhaus Nordlicht GmbH & Co. KG', { size: 15, bold: true, align: 'right' }),
    t(RIGHT, 74, 'Bürobedarf · Papier · Druckerzubehör', { size: 8.5, align: 'right' }),
    t(LEFT, 132, 'Papierhaus Nordlicht GmbH & Co. KG · Billstraße 88 · 20539 Hamburg', { size: 6.5 }),
    ...stack(LEFT, 150, 13, ['Kanzlei Dr. Vogt & Partner mbB', 'Buchhaltung', 'Rosenstraße 21', '20095 Hamburg'], {
      size: 10,
    }),
    t(340, 150, 'Lieferanschrift:', { size: 8, bold: true }),
    ...stack(340, 162, 11, ['Kanzlei Dr. Vogt & Partner mbB', 'Empfang 3. OG', 'Ballindamm 40', '20095 Hamburg'], {
      size: 8.5,
    }),
    t(LEFT, 252, 'Rechnung', { size: 16, bold: true }),
    ...rows(
      deCaptionRowColumns,
      281,
      13,
      [['Rechnung Nr.', 'Datum', 'Kunden-Nr.', 'Bestell-Nr.', 'Lieferschein-Nr.', 'Seite']],
      { size: 7.5, grey: true },
    ),
    ...rows(deCaptionRowColumns, 294, 13, [['2025/30712', '05.02.2025', 'K-4471', 'BV-8832', 'LS-30588', '1 von 1']], {
      size: 10,
    }),
    ...rows(deItemColumns, 331, 16, [['Art.-Nr.', 'Artikel', 'Menge', 'Einheit', 'Einzelpreis', 'Betrag']], {
      size: 8.5,
      bold: true,
    }),
    ...rows(
      deItemColumns,
      352,
      16,
      [
        ['100245', 'Kopierpapier A4 80 g/m², 5 x 500 Blatt', '12', 'Karton', '21,90', '262,80'],
        ['310877', 'Ordner 80 mm, blau', '40', 'Stück', '2,35', '94,00'],
        ['520119', 'Toner HP 59A schwarz (CF259A)', '2', 'Stück', '118,40', '236,80'],
        ['408712', 'Haftnotizen 76 x 76 mm, gelb, 12er-Pack', '10', 'Pack', '6,95', '69,50'],
      ],
      { size: 9 },
    ),
    ...pairs(
      350,
      RIGHT,
      430,
      14,
      [
        ['Warenwert netto', '663,10'],
        ['Versandkosten', '0,00'],
        ['MwSt. 19 %', '125,99'],
      ],
      { size: 9 },
    ),
    ...pairs(350, RIGHT, 494, 14, [['Endbetrag', 'EUR 789,09']], { size: 10.5, bold: true }),
    t(LEFT, 540, 'Zahlungsbedingungen: 30 Tage netto, fällig am 07.03.2025. Bei Zahlung bis zum 15.02.2025', {
      size: 9,
    }),
    t(LEFT, 552, 'gewähren wir 2 % Skonto (15,78 EUR). Lieferdatum entspricht Rechnungsdatum.', { size: 9 }),
    t(LEFT, 576, 'Es gelten unsere Allgemeinen Geschäftsbedingungen. Die Ware bleibt bis zur vollständigen', {
      size: 9,
    }),
    t(LEFT, 588, 'Bezahlung unser Eigentum.', { size: 9 }),
    t(LEFT, 782, 'Papierhaus Nordlicht GmbH & Co. KG · Billstraße 88 · 20539 Hamburg · Tel. 040 78 11 23-0', {
      size: 7,
      grey: true,
    }),
    t(
      LEFT,
      791,
      'Sitz Hamburg · Amtsgericht Hamburg HRA 118342 · Komplementärin: Nordlicht Verwaltungs-GmbH · USt-IdNr. DE318552907',
      { size: 7, grey: true },
    ),
    t(LEFT, 800, 'Hamburger Sparkasse · IBAN DE12 2005 0550 1234 5678 90 · BIC HASPDEHHXXX', { size: 7, grey: true }),
  ],
};

const deReceipt: HeldOutPage = {
  id: 'de-till-supermarkt',
  language: 'de',
  kind: 'till-receipt',
  truth: {
    issuer: 'Frischemarkt Seidel e.K.',
    invoice_number: '3318',
    invoice_date: '2025-03-14',
    total_amount: 24.94,
  },
  printed: { invoice_date: '14.03.25', total_amount: '24,94' },
  rules: [],
  ...receipt([
    c('Frischemarkt Seidel e.K.', { bold: true, big: true }),
    c('Hauptstr. 52'),
    c('79539 Lörrach'),
    c('Tel. 07621 94 31 20'),
    c('USt-IdNr. DE814227360'),
    '',
    lr('', 'EUR'),
    lr('BIO VOLLMILCH 3,8% 1L', '1,29 B'),
    lr('ROGGENMISCHBROT 750G', '2,79 B'),
    'BANANEN',
    lr('  0,856 kg x 1,69 EUR/kg', '1,45 B'),
    lr('GOUDA JUNG SCHEIBEN', '1,99 B'),
    lr('SPUELMITTEL 500ML', '1,15 A'),
    'MINERALWASSER 1,5L',
    lr('  2 Stk x 0,89', '1,78 A'),
    lr('PFAND', '0,50 A'),
    lr('KAFFEE CREMA 1KG', '13,99 B'),
    dashes,
    big('SUMME        EUR', '24,94'),
    '='.repeat(RECEIPT_CHARS),
    lr('Geg. girocard          EUR', '24,94'),
    '',
    cols(['Steuer', '%', 'Netto', 'Steuer', 'Brutto'], [0, 13, 22, 31, 40]),
    cols(['A=', '19,0', '2,88', '0,55', '3,43'], [0, 13, 22, 31, 40]),
    cols(['B=', '7,0', '20,10', '1,41', '21,51'], [0, 13, 22, 31, 40]),
    cols(['Gesamt', '', '22,98', '1,96', '24,94'], [0, 13, 22, 31, 40]),
    '',
    lr('14.03.25 17:43', 'Bon-Nr. 3318'),
    lr('Markt 4417  Kasse 2', 'Bed. 104'),
    '',
    c('*** Kundenbeleg ***'),
    'girocard',
    lr('Terminal-ID', '56231904'),
    lr('TA-Nr. 004712', 'Beleg-Nr. 2291'),
    lr('Datum 14.03.2025', 'Uhrzeit 17:43:01'),
    lr('Betrag EUR', '24,94'),
    c('Zahlung erfolgt'),
    '',
    'TSE-Transaktion: 284617',
    'TSE-Signaturzähler: 571234',
    'TSE-Start: 2025-03-14T17:42:07.000',
    'TSE-Stop:  2025-03-14T17:43:01.000',
    '',
    c('Vielen Dank für Ihren Einkauf!'),
  ]),
};

const deRestaurant: HeldOutPage = {
  id: 'de-restaurant-gasthof',
  language: 'de',
  kind: 'restaurant',
  truth: {
    issuer: 'Brauereigasthof Kessler GmbH',
    invoice_number: '48217',
    invoice_date: '2025-02-21',
    total_amount: 75.1,
  },
  printed: { invoice_date: '21.02.2025', total_amount: '75,10 €' },
  size: [RECEIPT_WIDTH, 540],
  rules: [hr(128, BILL_LEFT, BILL_RIGHT), hr(246, BILL_LEFT, BILL_RIGHT), hr(270, BILL_LEFT, BILL_RIGHT)],
  runs: [
    t(BILL_MID, 36, 'Brauereigasthof Kessler GmbH', { size: 11, bold: true, align: 'center' }),
    ...stack(BILL_MID, 49, 10, ['Obere Königstraße 9 · 96052 Bamberg', 'Tel. 0951 208 77-0', 'St.-Nr. 207/118/40312'], {
      size: 7.5,
      align: 'center',
    }),
    t(BILL_MID, 94, 'RECHNUNG', { size: 10, bold: true, align: 'center' }),
    ...pairs(BILL_LEFT, BILL_RIGHT, 108, 10, [['Rechn.-Nr.: 48217', 'Tisch: 12']], { size: 8 }),
    ...pairs(BILL_LEFT, BILL_RIGHT, 118, 10, [['Datum: 21.02.2025', '20:47 Uhr']], { size: 8 }),
    t(BILL_LEFT, 140, 'Bedienung: Anna', { size: 8 }),
    ...pairs(
      BILL_LEFT,
      BILL_RIGHT,
      156,
      10,
      [
        ['2 Schäufele mit Kloß', '33,80'],
        ['   à 16,90', ''],
        ['1 Bamberger Zwiebel', '14,50'],
        ['1 Beilagensalat', '4,20'],
        ['3 Rauchbier Märzen 0,5 l', '13,50'],
        ['   à 4,50', ''],
        ['1 Apfelschorle 0,4 l', '3,90'],
        ['2 Espresso', '5,20'],
        ['   à 2,60', ''],
      ],
      { size: 8 },
    ).filter((run) => run.text !== ''),
    ...pairs(BILL_LEFT, BILL_RIGHT, 262, 10, [['Gesamtbetrag', '75,10 €']], { size: 10, bold: true }),
    ...pairs(
      BILL_LEFT,
      BILL_RIGHT,
      286,
      10,
      [
        ['Netto 19 %', '63,11 €'],
        ['MwSt. 19 %', '11,99 €'],
        ['Brutto', '75,10 €'],
      ],
      { size: 8 },
    ),
    ...pairs(
      BILL_LEFT,
      BILL_RIGHT,
      326,
      10,
      [
        ['Bar', '80,00 €'],
        ['Rückgeld', '4,90 €'],
      ],
      { size: 8 },
    ),
    ...stack(BILL_LEFT, 356, 9, ['TSE-Transaktion 109883 · Signaturzähler 331902', 'TSE-Start 2025-02-21T19:12:40'], {
      size: 6.5,
    }),
    t(BILL_LEFT, 386, 'Bewirtungsaufwand-Angaben (§ 4 Abs. 5 Ziff. 2 EStG)', { size: 7, bold: true }),
    ...stack(
      BILL_LEFT,
      400,
      15,
      [
        'Bewirtete Person(en): ______________________',
        'Anlass der Bewirtung: ______________________',
        'Höhe der Aufwendungen: ____________________',
        'Trinkgeld: ________________________________',
        'Ort, Datum: _______________________________',
        'Unterschrift: ______________________________',
      ],
      { size: 7 },
    ),
    t(BILL_MID, 510, 'Vielen Dank für Ihren Besuch!', { size: 8, align: 'center' }),
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// French
// ---------------------------------------------------------------------------------------------------------------

const frItemColumns: Column[] = [
  { x: LEFT },
  { x: 330, align: 'right' },
  { x: 400, align: 'right' },
  { x: 450, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const frLetterhead: HeldOutPage = {
  id: 'fr-letterhead-chauffage',
  language: 'fr',
  kind: 'letterhead',
  truth: {
    issuer: 'Delorme Chauffage SARL',
    invoice_number: 'FA-2025-0087',
    invoice_date: '2025-03-07',
    total_amount: 4350.5,
  },
  printed: { invoice_date: '07/03/2025', total_amount: '4 350,50 €' },
  size: A4,
  rules: [hr(96), hr(364), hr(442), hr(490, 340, RIGHT)],
  runs: [
    t(LEFT, 62, 'Delorme Chauffage SARL', { size: 19, bold: true }),
    t(LEFT, 78, 'Plomberie · Chauffage · Énergies renouvelables', { size: 9 }),
    t(LEFT, 90, '18, rue des Tanneurs – 69007 Lyon – Tél. 04 78 61 22 90 – contact@delorme-chauffage.fr', {
      size: 7.5,
    }),
    t(RIGHT, 122, 'Lyon, le 7 mars 2025', { size: 9.5, align: 'right' }),
    ...stack(330, 150, 13, ['SCI Les Marronniers', 'M. Philippe Aubert', '4, impasse des Lilas', '69130 Écully'], {
      size: 10,
    }),
    t(LEFT, 232, 'FACTURE', { size: 18, bold: true }),
    ...pairs(
      LEFT,
      250,
      254,
      13,
      [
        ['Facture n° :', 'FA-2025-0087'],
        ['Date de facture :', '07/03/2025'],
        ['Échéance :', '06/04/2025'],
        ['Code client :', 'C0412'],
        ['Référence devis :', 'D-2025-031 du 12/02/2025'],
      ],
      { size: 9 },
    ),
    t(LEFT, 340, 'Chantier : remplacement de la chaudière, 4, impasse des Lilas, 69130 Écully', { size: 9 }),
    ...rows(frItemColumns, 359, 16, [['Désignation', 'Qté', 'P.U. HT', 'TVA', 'Montant HT']], {
      size: 8.5,
      bold: true,
    }),
    ...rows(
      frItemColumns,
      380,
      16,
      [
        ['Chaudière gaz à condensation 25 kW, fournie et posée', '1', '3 180,00', '10 %', '3 180,00'],
        ["Main d'œuvre : dépose, pose et mise en service (h)", '9', '55,00', '10 %', '495,00'],
        ['Kit ventouse horizontale', '1', '245,00', '10 %', '245,00'],
        ['Déplacement', '1', '35,00', '10 %', '35,00'],
      ],
      { size: 9 },
    ),
    ...pairs(
      340,
      RIGHT,
      460,
      14,
      [
        ['Total HT', '3 955,00 €'],
        ['TVA 10 %', '395,50 €'],
      ],
      { size: 9 },
    ),
    ...pairs(340, RIGHT, 506, 14, [['Total TTC', '4 350,50 €']], { size: 10.5, bold: true }),
    t(
      LEFT,
      550,
      'Conditions de règlement : paiement à 30 jours par virement. Escompte pour paiement anticipé : néant.',
      {
        size: 8.5,
      },
    ),
    t(LEFT, 562, "Pénalités de retard : trois fois le taux d'intérêt légal. Indemnité forfaitaire pour frais de", {
      size: 8.5,
    }),
    t(LEFT, 574, 'recouvrement : 40 €. TVA au taux réduit de 10 % : attestation simplifiée remise par le client.', {
      size: 8.5,
    }),
    t(LEFT, 598, 'IBAN FR76 1027 8073 1100 0204 5120 173 – BIC CMCIFR2A – Crédit Mutuel Lyon Part-Dieu', {
      size: 8.5,
    }),
    t(297.64, 790, 'Delorme Chauffage SARL au capital de 20 000 € – RCS Lyon 512 447 880 – SIRET 512 447 880 00021', {
      size: 7,
      grey: true,
      align: 'center',
    }),
    t(
      297.64,
      799,
      'N° TVA intracommunautaire FR47 512447880 – Code APE 4322B – Assurance décennale MAAF n° 118442907',
      {
        size: 7,
        grey: true,
        align: 'center',
      },
    ),
  ],
};

const frCaptionRowColumns: Column[] = [{ x: 60 }, { x: 150 }, { x: 236 }, { x: 320 }, { x: 440 }];
const frRowItemColumns: Column[] = [
  { x: LEFT },
  { x: 110 },
  { x: 400, align: 'right' },
  { x: 470, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const frCaptionRow: HeldOutPage = {
  id: 'fr-caption-row-imprimerie',
  language: 'fr',
  kind: 'caption-row',
  truth: {
    issuer: 'Imprimerie Vasseur SAS',
    invoice_number: 'F250214',
    invoice_date: '2025-02-14',
    total_amount: 673.2,
  },
  printed: { invoice_date: '14/02/2025', total_amount: '673,20 €' },
  size: A4,
  rules: [hr(262), hr(276), hr(294), hr(326), hr(418), hr(486, 350, RIGHT)],
  runs: [
    t(LEFT, 60, 'Imprimerie Vasseur SAS', { size: 17, bold: true }),
    ...stack(
      LEFT,
      76,
      10,
      ['7, boulevard de la Prairie-au-Duc', '44200 Nantes', 'Tél. 02 40 89 13 55 – devis@imprimerie-vasseur.fr'],
      { size: 8 },
    ),
    ...stack(
      330,
      146,
      13,
      ['Librairie des Quais SARL', 'Service comptabilité', '22, quai de la Fosse', '44000 Nantes'],
      { size: 10 },
    ),
    t(330, 210, 'Livraison : 3, rue Kervégan, 44000 Nantes', { size: 8 }),
    t(LEFT, 246, 'FACTURE', { size: 16, bold: true }),
    ...rows(frCaptionRowColumns, 272, 14, [['Numéro', 'Date', 'Code client', 'Votre commande', 'Échéance']], {
      size: 7.5,
      bold: true,
    }),
    ...rows(frCaptionRowColumns, 288, 14, [['F250214', '14/02/2025', '411LIB023', 'BC 2025-17', '16/03/2025']], {
      size: 9.5,
    }),
    ...rows(frRowItemColumns, 320, 16, [['Réf.', 'Désignation', 'Quantité', 'P.U. HT', 'Montant HT']], {
      size: 8.5,
      bold: true,
    }),
    ...rows(
      frRowItemColumns,
      342,
      16,
      [
        ['FLY-A5', 'Flyers A5 recto-verso, couché brillant 135 g', '5 000', '0,046', '230,00'],
        ['AFF-A3', 'Affiches A3, couché satiné 170 g', '200', '0,84', '168,00'],
        ['CDV-350', 'Cartes de visite 350 g pelliculées mat (lots de 250)', '4', '29,50', '118,00'],
        ['PAO', 'Bon à tirer et calage', '1', '45,00', '45,00'],
      ],
      { size: 9 },
    ),
    t(LEFT, 436, 'Date de livraison : 12/02/2025 – Bon de livraison BL-0925', { size: 8.5 }),
    ...pairs(
      350,
      RIGHT,
      436,
      14,
      [
        ['Total HT', '561,00 €'],
        ['TVA 20,00 %', '112,20 €'],
        ['Total TTC', '673,20 €'],
      ],
      { size: 9 },
    ),
    ...pairs(350, RIGHT, 502, 14, [['Net à payer', '673,20 €']], { size: 10.5, bold: true }),
    t(LEFT, 548, 'Règlement par virement à 30 jours date de facture. Pas d’escompte pour paiement anticipé.', {
      size: 8.5,
    }),
    t(LEFT, 560, 'En cas de retard de paiement : pénalités au taux de 10 % l’an et indemnité forfaitaire de 40 €.', {
      size: 8.5,
    }),
    t(LEFT, 584, 'Coordonnées bancaires : IBAN FR76 3004 7140 6700 0201 8840 155 – BIC CMCIFRPP', { size: 8.5 }),
    t(
      297.64,
      795,
      'Imprimerie Vasseur SAS au capital de 80 000 € – SIREN 830 221 457 RCS Nantes – N° TVA FR18 830221457',
      { size: 7, grey: true, align: 'center' },
    ),
  ],
};

const frReceipt: HeldOutPage = {
  id: 'fr-till-supermarche',
  language: 'fr',
  kind: 'till-receipt',
  truth: { issuer: 'SUPERMARCHÉ LAMBERT SAS', invoice_number: '0387', invoice_date: '2025-03-15', total_amount: 25.94 },
  printed: { invoice_date: '15/03/2025', total_amount: '25,94 €' },
  rules: [],
  ...receipt([
    c('SUPERMARCHÉ LAMBERT SAS', { bold: true, big: true }),
    c('12 avenue Jean Jaurès'),
    c('21000 DIJON'),
    c('Tél : 03 80 41 17 52'),
    c('SIRET 442 318 905 00017'),
    c('TVA FR62442318905'),
    '',
    lr('BAGUETTE TRADITION', '1,30 € 1'),
    lr('EMMENTAL RAPÉ 200G', '2,49 € 1'),
    'POMMES GOLDEN',
    lr('  1,245 kg x 2,79 €/kg', '3,47 € 1'),
    lr('YAOURT NATURE X8', '1,89 € 1'),
    lr("JUS D'ORANGE 1L", '2,35 € 1'),
    lr('PAPIER TOILETTE X12', '5,99 € 2'),
    lr('LESSIVE LIQUIDE 2L', '8,45 € 2'),
    dashes,
    '7 ARTICLES',
    big('TOTAL À PAYER', '25,94 €'),
    lr('CB', '25,94 €'),
    dashes,
    cols(['  TVA', 'HT', 'TVA', 'TTC'], [0, 20, 30, 40]),
    cols(['1 5,50%', '10,90', '0,60', '11,50'], [0, 20, 30, 40]),
    cols(['2 20,00%', '12,03', '2,41', '14,44'], [0, 20, 30, 40]),
    cols(['TOTAL', '22,93', '3,01', '25,94'], [0, 20, 30, 40]),
    '',
    'CAGNOTTE FIDÉLITÉ : 0,26 €',
    '',
    lr('15/03/2025  11:26', 'MAG 0412'),
    lr('CAISSE 03', 'CAISSIER 112'),
    'N° TICKET 0387',
    '',
    c('CARTE BANCAIRE'),
    c('SANS CONTACT'),
    'A0000000421010',
    'LE 15/03/25 A 11:26:04',
    'DIJON - LAMBERT',
    'N° AUTO : 318840',
    'MONTANT = 25,94 EUR',
    c('DEBIT'),
    c('TICKET CLIENT A CONSERVER'),
    '',
    c('MERCI DE VOTRE VISITE'),
    c('À BIENTÔT'),
  ]),
};

const frRestaurant: HeldOutPage = {
  id: 'fr-restaurant-brasserie',
  language: 'fr',
  kind: 'restaurant',
  truth: {
    issuer: 'Brasserie des Arcades SAS',
    invoice_number: '004512',
    invoice_date: '2025-02-28',
    total_amount: 88.1,
  },
  printed: { invoice_date: '28/02/2025', total_amount: '88,10 EUR' },
  size: [RECEIPT_WIDTH, 390],
  rules: [hr(136, BILL_LEFT, BILL_RIGHT), hr(210, BILL_LEFT, BILL_RIGHT), hr(232, BILL_LEFT, BILL_RIGHT)],
  runs: [
    t(BILL_MID, 36, 'Brasserie des Arcades SAS', { size: 11, bold: true, align: 'center' }),
    ...stack(
      BILL_MID,
      49,
      9,
      ['3, place du Capitole – 31000 Toulouse', 'Tél. 05 61 23 48 70', 'SIRET 789 554 210 00018', 'TVA FR09789554210'],
      { size: 7, align: 'center' },
    ),
    t(BILL_MID, 100, 'NOTE n° 004512', { size: 10, bold: true, align: 'center' }),
    ...pairs(BILL_LEFT, BILL_RIGHT, 116, 10, [['Table 7 – 2 couverts', 'Serveur : Julien']], { size: 8 }),
    ...pairs(BILL_LEFT, BILL_RIGHT, 126, 10, [['28/02/2025', '13:42']], { size: 8 }),
    ...pairs(
      BILL_LEFT,
      BILL_RIGHT,
      150,
      10,
      [
        ['2 Formule déjeuner (2 x 17,50)', '35,00'],
        ['1 Tartare de bœuf, frites', '18,90'],
        ['1 Crème brûlée', '7,50'],
        ['1 Pichet côtes-du-rhône 50 cl', '14,00'],
        ['1 Eau pétillante 1 L', '5,50'],
        ['3 Café (3 x 2,40)', '7,20'],
      ],
      { size: 8 },
    ),
    ...pairs(BILL_LEFT, BILL_RIGHT, 225, 10, [['TOTAL', '88,10 EUR']], { size: 10.5, bold: true }),
    ...rows(
      [{ x: BILL_LEFT }, { x: 100, align: 'right' }, { x: 150, align: 'right' }, { x: BILL_RIGHT, align: 'right' }],
      250,
      10,
      [
        ['Taux', 'HT', 'TVA', 'TTC'],
        ['10,00 %', '67,36', '6,74', '74,10'],
        ['20,00 %', '11,67', '2,33', '14,00'],
        ['Cumul', '79,03', '9,07', '88,10'],
      ],
      { size: 7.5 },
    ),
    ...pairs(BILL_LEFT, BILL_RIGHT, 306, 10, [['Carte bancaire', '88,10']], { size: 8 }),
    t(BILL_MID, 340, 'Service compris', { size: 8, align: 'center' }),
    t(BILL_MID, 352, 'Merci de votre visite !', { size: 8, align: 'center' }),
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// Dutch
// ---------------------------------------------------------------------------------------------------------------

const nlItemColumns: Column[] = [
  { x: LEFT },
  { x: 370, align: 'right' },
  { x: 450, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const nlLetterhead: HeldOutPage = {
  id: 'nl-letterhead-advies',
  language: 'nl',
  kind: 'letterhead',
  truth: {
    issuer: 'Bakker & De Vries Advies B.V.',
    invoice_number: '2025-0143',
    invoice_date: '2025-03-14',
    total_amount: 5716.96,
  },
  printed: { invoice_date: '14-03-2025', total_amount: '€ 5.716,96' },
  size: A4,
  rules: [hr(350), hr(420), hr(468, 340, RIGHT)],
  runs: [
    t(LEFT, 62, 'Bakker & De Vries Advies B.V.', { size: 18, bold: true }),
    t(LEFT, 77, 'organisatieadvies voor zorg en welzijn', { size: 9 }),
    ...stack(RIGHT, 52, 10.5, ['Stationsplein 12', '3818 LE Amersfoort', '033 - 465 21 90', 'www.bakkerdevries.nl'], {
      size: 8,
      align: 'right',
    }),
    ...stack(
      LEFT,
      150,
      13,
      ['Stichting Woonzorg Het Baken', 't.a.v. de crediteurenadministratie', 'Postbus 214', '3800 AE Amersfoort'],
      { size: 10 },
    ),
    ...pairs(
      340,
      RIGHT,
      150,
      14,
      [
        ['Factuurnummer', '2025-0143'],
        ['Factuurdatum', '14-03-2025'],
        ['Vervaldatum', '13-04-2025'],
        ['Debiteurnummer', '30218'],
        ['Uw referentie', 'PO-77812'],
        ['Projectnummer', 'P24-019'],
      ],
      { size: 9 },
    ),
    t(LEFT, 285, 'FACTUUR', { size: 16, bold: true }),
    t(LEFT, 310, 'Geachte heer, mevrouw,', { size: 10 }),
    t(LEFT, 324, 'Hierbij brengen wij u de volgende werkzaamheden in rekening:', { size: 10 }),
    ...rows(nlItemColumns, 345, 16, [['Omschrijving', 'Aantal', 'Tarief', 'Bedrag']], { size: 8.5, bold: true }),
    ...rows(
      nlItemColumns,
      366,
      16,
      [
        ['Advies herinrichting zorgprocessen, februari 2025 (uren)', '32,00', '€ 115,00', '€ 3.680,00'],
        ['Workshop teamleiders, 16 februari 2025', '1', '€ 950,00', '€ 950,00'],
        ['Reiskosten (km)', '412', '€ 0,23', '€ 94,76'],
      ],
      { size: 9 },
    ),
    ...pairs(
      340,
      RIGHT,
      438,
      14,
      [
        ['Subtotaal', '€ 4.724,76'],
        ['Btw 21%', '€ 992,20'],
      ],
      { size: 9 },
    ),
    ...pairs(340, RIGHT, 484, 14, [['Totaal te betalen', '€ 5.716,96']], { size: 10.5, bold: true }),
    t(LEFT, 530, 'Wij verzoeken u vriendelijk het totaalbedrag vóór 13-04-2025 over te maken op', { size: 9.5 }),
    t(LEFT, 543, 'IBAN NL44 RABO 0312 4567 89 t.n.v. Bakker & De Vries Advies B.V., onder vermelding van', {
      size: 9.5,
    }),
    t(LEFT, 556, 'het factuurnummer.', { size: 9.5 }),
    t(LEFT, 584, 'Met vriendelijke groet,', { size: 9.5 }),
    t(LEFT, 598, 'drs. M. (Marloes) Bakker', { size: 9.5 }),
    t(
      297.64,
      795,
      'Bakker & De Vries Advies B.V. · KvK 71234567 · btw-id NL858123456B01 · IBAN NL44 RABO 0312 4567 89',
      { size: 7, grey: true, align: 'center' },
    ),
  ],
};

const nlCaptionRowColumns: Column[] = [{ x: LEFT }, { x: 150 }, { x: 240 }, { x: 320 }, { x: 420 }];
const nlRowItemColumns: Column[] = [
  { x: LEFT },
  { x: 104 },
  { x: 360, align: 'right' },
  { x: 420, align: 'right' },
  { x: 465, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const nlCaptionRow: HeldOutPage = {
  id: 'nl-caption-row-groothandel',
  language: 'nl',
  kind: 'caption-row',
  truth: {
    issuer: 'Hoekstra Horecagroothandel B.V.',
    invoice_number: 'VF250388',
    invoice_date: '2025-02-03',
    total_amount: 290.2,
  },
  printed: { invoice_date: '03-02-2025', total_amount: 'EUR 290,20' },
  size: A4,
  rules: [hr(258), hr(290), hr(320), hr(402), hr(488, 350, RIGHT)],
  runs: [
    t(RIGHT, 60, 'Hoekstra Horecagroothandel B.V.', { size: 16, bold: true, align: 'right' }),
    ...stack(RIGHT, 75, 10, ['Zernikelaan 40', '9747 AA Groningen', 'T 050 - 571 88 20'], {
      size: 8,
      align: 'right',
    }),
    ...stack(LEFT, 150, 13, ['Eetcafé De Zwaan V.O.F.', 'Grote Markt 3', '9711 LV Groningen'], { size: 10 }),
    t(LEFT, 240, 'Factuur', { size: 16, bold: true }),
    ...rows(nlCaptionRowColumns, 270, 14, [['Factuurnr.', 'Datum', 'Klantnr.', 'Ordernr.', 'Vervaldatum']], {
      size: 7.5,
      grey: true,
    }),
    ...rows(nlCaptionRowColumns, 284, 14, [['VF250388', '03-02-2025', '11872', 'ORD-56120', '17-02-2025']], {
      size: 10,
    }),
    ...rows(nlRowItemColumns, 314, 16, [['Art.nr.', 'Omschrijving', 'Aantal', 'Prijs', 'Btw', 'Bedrag']], {
      size: 8.5,
      bold: true,
    }),
    ...rows(
      nlRowItemColumns,
      336,
      16,
      [
        ['40112', 'Frituurolie 10 L', '4', '24,95', '9%', '99,80'],
        ['70305', 'Servetten 3-laags wit 33x33 (1000 st.)', '2', '18,50', '21%', '37,00'],
        ['20871', 'Koffiebonen espresso 1 kg', '6', '16,75', '9%', '100,50'],
        ['80214', 'Allesreiniger 5 L', '2', '11,20', '21%', '22,40'],
      ],
      { size: 9 },
    ),
    t(LEFT, 420, 'Btw-specificatie', { size: 8.5, bold: true }),
    ...rows(
      [{ x: LEFT }, { x: 150, align: 'right' }, { x: 220, align: 'right' }],
      433,
      12,
      [
        ['Tarief', 'Grondslag', 'Btw'],
        ['9%', '200,30', '18,03'],
        ['21%', '59,40', '12,47'],
      ],
      { size: 8.5 },
    ),
    ...pairs(
      350,
      RIGHT,
      420,
      14,
      [
        ['Totaal excl. btw', '259,70'],
        ['Btw', '30,50'],
      ],
      { size: 9 },
    ),
    ...pairs(350, RIGHT, 504, 14, [['Totaal incl. btw', 'EUR 290,20']], { size: 10.5, bold: true }),
    t(LEFT, 548, 'Betaling binnen 14 dagen na factuurdatum op IBAN NL27 INGB 0006 7341 28 o.v.v. factuurnummer.', {
      size: 8.5,
    }),
    t(LEFT, 560, 'Op al onze leveringen zijn onze algemene voorwaarden van toepassing, gedeponeerd bij de KvK.', {
      size: 8.5,
    }),
    t(
      297.64,
      795,
      'Hoekstra Horecagroothandel B.V. · KvK 02087415 · BTW NL001234567B01 · IBAN NL27 INGB 0006 7341 28',
      {
        size: 7,
        grey: true,
        align: 'center',
      },
    ),
  ],
};

const nlReceipt: HeldOutPage = {
  id: 'nl-till-supermarkt',
  language: 'nl',
  kind: 'till-receipt',
  truth: {
    issuer: 'Van Leeuwen Supermarkten B.V.',
    invoice_number: '35081',
    invoice_date: '2025-03-22',
    total_amount: 38.39,
  },
  printed: { invoice_date: '22-03-2025', total_amount: '38,39' },
  rules: [],
  ...receipt([
    c('Van Leeuwen Supermarkten B.V.', { bold: true, big: true }),
    c('Filiaal Utrecht-Lombok'),
    c('Kanaalstraat 118'),
    c('3531 CL Utrecht'),
    c('Tel. 030-2934417'),
    '',
    lr('OMSCHRIJVING', 'BEDRAG'),
    lr('HALFVOLLE MELK 1,5L', '1,39'),
    lr('VOLKOREN BROOD HEEL', '2,59'),
    lr('JONGE KAAS 48+ PLAKKEN', '3,79'),
    'TOMATEN TROS',
    lr('  0,742 KG x 3,49 EUR/KG', '2,59'),
    lr('HAGELSLAG PUUR 400G', '2,85'),
    lr('KOFFIEPADS CLASSIC 36ST', '4,29'),
    lr('  KORTING KOFFIEPADS', '-1,00'),
    lr('PILS KRAT 24X30CL', '17,99'),
    lr('STATIEGELD KRAT', '3,90'),
    dashes,
    '8 ARTIKELEN',
    big('TOTAAL', '38,39'),
    lr('PINNEN', '38,39'),
    dashes,
    cols(['BTW', 'EXCL.', 'BTW', 'INCL.'], [0, 18, 29, 40]),
    cols(['9%', '15,14', '1,36', '16,50'], [0, 18, 29, 40]),
    cols(['21%', '14,87', '3,12', '17,99'], [0, 18, 29, 40]),
    cols(['TOTAAL', '30,01', '4,48', '34,49'], [0, 18, 29, 40]),
    '',
    'Bonnr: 35081   Kassa: 4   Kassier: 22',
    '22-03-2025  16:05',
    '',
    c('BETAALAUTOMAAT'),
    lr('Terminal: 7Q1A2B', 'Merchant: 0018342'),
    lr('Periode: 5071', 'Transactie: 02019044'),
    'MAESTRO',
    'Kaart: xxxxxxxxxxxxxxx4471',
    'Kaartserienummer: 1',
    'BETALING',
    lr('Datum: 22/03/2025', '16:05'),
    'Autorisatiecode: 8H42K1',
    lr('Totaal:', '38,39 EUR'),
    '',
    c('Bedankt en tot ziens!'),
  ]),
};

const nlServiceColumns: Column[] = [
  { x: LEFT },
  { x: 360, align: 'right' },
  { x: 450, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const nlService: HeldOutPage = {
  id: 'nl-service-autobedrijf',
  language: 'nl',
  kind: 'service',
  truth: {
    issuer: 'Autobedrijf Smits B.V.',
    invoice_number: '25-1184',
    invoice_date: '2025-04-07',
    total_amount: 420.1,
  },
  printed: { invoice_date: '7 april 2025', total_amount: '€ 420,10' },
  size: A4,
  rules: [hr(100, LEFT, RIGHT, 1.2), hr(318), hr(434), hr(494, 340, RIGHT)],
  runs: [
    t(297.64, 58, 'Autobedrijf Smits B.V.', { size: 20, bold: true, align: 'center' }),
    t(297.64, 74, 'Erkend APK-keuringsstation · Onderhoud en reparatie alle merken', { size: 8.5, align: 'center' }),
    t(297.64, 88, 'Industrieweg 31 · 5683 CB Best · Tel. 0499 - 37 24 60 · info@autosmits.nl', {
      size: 8,
      align: 'center',
    }),
    t(LEFT, 134, 'FACTUUR', { size: 15, bold: true }),
    ...pairs(
      LEFT,
      250,
      154,
      13,
      [
        ['Nummer', '25-1184'],
        ['Datum', '7 april 2025'],
        ['Klant', '4021'],
        ['Werkorder', 'WO-25-0617'],
      ],
      { size: 9 },
    ),
    ...stack(340, 154, 13, ['Dhr. R. Verhoeven', 'Dorpsstraat 7', '5688 AJ Oirschot'], { size: 10 }),
    ...pairs(
      LEFT,
      250,
      228,
      12,
      [
        ['Kenteken', '7-KXB-82'],
        ['Merk/type', 'Volkswagen Golf 1.0 TSI'],
        ['Km-stand', '84.215'],
        ['Volgende APK', '07-04-2026'],
      ],
      { size: 8.5 },
    ),
    ...rows(nlServiceColumns, 313, 16, [['Omschrijving', 'Aantal', 'Prijs', 'Totaal']], { size: 8.5, bold: true }),
    ...rows(
      nlServiceColumns,
      334,
      16,
      [
        ['APK-keuring personenauto', '1', '39,50', '39,50'],
        ['Kleine beurt volgens fabrieksvoorschrift', '1', '149,00', '149,00'],
        ['Motorolie 5W-30 LongLife (liter)', '4,3', '16,95', '72,89'],
        ['Oliefilter', '1', '14,60', '14,60'],
        ['Ruitenwisserbladen set voor', '1', '34,95', '34,95'],
        ['Arbeidsloon (uur)', '0,5', '72,50', '36,25'],
      ],
      { size: 9 },
    ),
    ...pairs(
      340,
      RIGHT,
      452,
      14,
      [
        ['Totaal excl. BTW', '€ 347,19'],
        ['BTW 21%', '€ 72,91'],
      ],
      { size: 9 },
    ),
    ...pairs(340, RIGHT, 510, 14, [['Factuurbedrag', '€ 420,10']], { size: 10.5, bold: true }),
    t(LEFT, 556, 'Betaling binnen 8 dagen na factuurdatum op NL63 RABO 0156 7823 41 t.n.v. Autobedrijf Smits B.V.', {
      size: 8.5,
    }),
    t(LEFT, 568, 'Op onze werkzaamheden zijn de BOVAG-voorwaarden van toepassing.', { size: 8.5 }),
    t(297.64, 795, 'KvK 17065532 · BTW NL807712094B01 · BOVAG-lid', { size: 7, grey: true, align: 'center' }),
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// Spanish
// ---------------------------------------------------------------------------------------------------------------

const esItemColumns: Column[] = [
  { x: LEFT },
  { x: 380, align: 'right' },
  { x: 460, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const esLetterhead: HeldOutPage = {
  id: 'es-letterhead-reformas',
  language: 'es',
  kind: 'letterhead',
  truth: {
    issuer: 'Reformas Castellano S.L.',
    invoice_number: '2025-A-0062',
    invoice_date: '2025-03-10',
    total_amount: 2568.35,
  },
  printed: { invoice_date: '10/03/2025', total_amount: '2.568,35 €' },
  size: A4,
  rules: [hr(92), hr(340), hr(424), hr(472, 340, RIGHT)],
  runs: [
    t(LEFT, 60, 'Reformas Castellano S.L.', { size: 19, bold: true }),
    t(LEFT, 78, 'C/ Alcalá, 214, 2º B · 28028 Madrid · Tel. 91 356 22 80 · CIF B86412739', { size: 8 }),
    t(LEFT, 128, 'FACTURA', { size: 18, bold: true }),
    t(LEFT, 150, 'Cliente', { size: 8, bold: true }),
    ...stack(
      LEFT,
      164,
      13,
      ['Gestoría Pardo Asesores S.L.', 'NIF B45871203', 'Calle de Bravo Murillo, 57', '28015 Madrid'],
      { size: 10 },
    ),
    ...pairs(
      330,
      RIGHT,
      150,
      14,
      [
        ['Factura nº', '2025-A-0062'],
        ['Fecha', '10/03/2025'],
        ['Vencimiento', '09/04/2025'],
        ['Presupuesto', 'P-25/014'],
        ['Forma de pago', 'Transferencia'],
      ],
      { size: 9 },
    ),
    t(LEFT, 300, 'Obra: reforma de oficina en Calle de Bravo Murillo, 57, 1º izda., 28015 Madrid', { size: 9 }),
    ...rows(esItemColumns, 335, 16, [['Concepto', 'Cantidad', 'Precio', 'Importe']], { size: 8.5, bold: true }),
    ...rows(
      esItemColumns,
      356,
      16,
      [
        ['Pintura plástica lisa en paredes y techos (m²)', '142', '6,80', '965,60'],
        ['Sustitución de rodapié DM lacado (ml)', '38', '11,50', '437,00'],
        ['Alisado de paredes (m²)', '60', '9,00', '540,00'],
        ['Retirada de escombros y limpieza final', '1', '180,00', '180,00'],
      ],
      { size: 9 },
    ),
    ...pairs(
      340,
      RIGHT,
      442,
      14,
      [
        ['Base imponible', '2.122,60 €'],
        ['IVA 21 %', '445,75 €'],
      ],
      { size: 9 },
    ),
    ...pairs(340, RIGHT, 488, 14, [['TOTAL FACTURA', '2.568,35 €']], { size: 10.5, bold: true }),
    t(LEFT, 534, 'Forma de pago: transferencia bancaria a 30 días a la cuenta ES21 0049 1500 0512 3456 7892', {
      size: 8.5,
    }),
    t(LEFT, 546, '(Banco Santander), indicando el número de factura.', { size: 8.5 }),
    t(
      297.64,
      790,
      'Reformas Castellano S.L. · CIF B86412739 · Inscrita en el Registro Mercantil de Madrid, Tomo 38.412,',
      { size: 7, grey: true, align: 'center' },
    ),
    t(297.64, 799, 'Folio 121, Hoja M-683210 · info@reformascastellano.es', { size: 7, grey: true, align: 'center' }),
  ],
};

const esCaptionRowColumns: Column[] = [{ x: 60 }, { x: 150 }, { x: 226 }, { x: 290 }, { x: 370 }, { x: 462 }];
const esRowItemColumns: Column[] = [
  { x: LEFT },
  { x: 100 },
  { x: 370, align: 'right' },
  { x: 425, align: 'right' },
  { x: 465, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const esCaptionRow: HeldOutPage = {
  id: 'es-caption-row-distribuciones',
  language: 'es',
  kind: 'caption-row',
  truth: {
    issuer: 'Distribuciones Ebro Norte S.A.',
    invoice_number: 'FV25/001273',
    invoice_date: '2025-04-03',
    total_amount: 295.65,
  },
  printed: { invoice_date: '03/04/2025', total_amount: '295,65 EUR' },
  size: A4,
  rules: [hr(250), hr(264), hr(282), hr(312), hr(412), hr(500, 350, RIGHT)],
  runs: [
    t(LEFT, 58, 'Distribuciones Ebro Norte S.A.', { size: 17, bold: true }),
    ...stack(
      LEFT,
      74,
      10,
      ['Polígono Malpica, calle D, nave 12', '50016 Zaragoza', 'Tel. 976 57 20 14 · pedidos@ebronorte.es'],
      { size: 8 },
    ),
    ...stack(330, 140, 13, ['Hostelería Pilarica S.L.', 'Plaza del Pilar, 9', '50003 Zaragoza', 'CIF B50998412'], {
      size: 10,
    }),
    ...rows(esCaptionRowColumns, 260, 14, [['FACTURA Nº', 'FECHA', 'CLIENTE', 'PEDIDO', 'ALBARÁN', 'VENCIMIENTO']], {
      size: 7.5,
      bold: true,
    }),
    ...rows(
      esCaptionRowColumns,
      276,
      14,
      [['FV25/001273', '03/04/2025', '43008', 'P-25-3391', 'ALB-25-08812', '03/05/2025']],
      { size: 9.5 },
    ),
    ...rows(esRowItemColumns, 306, 16, [['Código', 'Descripción', 'Unidades', 'Precio', '% IVA', 'Importe']], {
      size: 8.5,
      bold: true,
    }),
    ...rows(
      esRowItemColumns,
      326,
      14,
      [
        ['10233', 'Agua mineral 1,5 L (pack 6)', '10', '2,70', '10', '27,00'],
        ['20418', 'Cerveza lata 33 cl (caja 24)', '5', '14,90', '21', '74,50'],
        ['20561', 'Refresco de cola 2 L (pack 6)', '4', '8,75', '21', '35,00'],
        ['11870', 'Café molido natural 1 kg', '6', '12,30', '10', '73,80'],
        ['30092', 'Servilletas de papel 40x40 (caja 1200)', '2', '21,60', '21', '43,20'],
      ],
      { size: 9 },
    ),
    ...rows(
      [{ x: LEFT }, { x: 170, align: 'right' }, { x: 230, align: 'right' }, { x: 300, align: 'right' }],
      430,
      13,
      [
        ['Base imponible', '% IVA', 'Cuota IVA', 'Total'],
        ['100,80', '10', '10,08', '110,88'],
        ['152,70', '21', '32,07', '184,77'],
      ],
      { size: 8.5 },
    ),
    ...pairs(
      350,
      RIGHT,
      430,
      14,
      [
        ['Suma bases imponibles', '253,50'],
        ['Total cuotas IVA', '42,15'],
      ],
      { size: 9 },
    ),
    ...pairs(350, RIGHT, 516, 14, [['TOTAL A PAGAR', '295,65 EUR']], { size: 10.5, bold: true }),
    t(
      LEFT,
      560,
      'Forma de pago: recibo domiciliado a 30 días. Cuenta de abono: ES79 2085 0103 9201 2345 6781 (Ibercaja).',
      {
        size: 8.5,
      },
    ),
    t(
      297.64,
      792,
      'Distribuciones Ebro Norte S.A. · CIF A50214876 · Inscrita en el R.M. de Zaragoza, Tomo 2.118, Folio 40, Hoja Z-19887',
      { size: 7, grey: true, align: 'center' },
    ),
  ],
};

const esReceipt: HeldOutPage = {
  id: 'es-till-supermercado',
  language: 'es',
  kind: 'till-receipt',
  truth: {
    issuer: 'SUPERMERCADOS LA HUERTA, S.L.',
    invoice_number: '4417-031-088215',
    invoice_date: '2025-04-05',
    total_amount: 16.61,
  },
  printed: { invoice_date: '05/04/2025', total_amount: '16,61' },
  rules: [],
  ...receipt([
    c('SUPERMERCADOS LA HUERTA, S.L.', { bold: true, big: true }),
    c('C.I.F. B46231958'),
    c('Avda. del Puerto, 122'),
    c('46023 VALENCIA'),
    c('Tel. 963 30 41 77'),
    '',
    lr('05/04/2025 19:12', 'OP: 1107'),
    'FACTURA SIMPLIFICADA: 4417-031-088215',
    dashes,
    cols(['Ud. Descripción', 'P.Unit', 'Importe'], [0, 31, 40]),
    cols(['1   LECHE ENTERA 1L', '', '0,95'], [0, 31, 40]),
    cols(['1   PAN BARRA', '', '0,65'], [0, 31, 40]),
    '    TOMATE PERA',
    cols(['    0,912 kg x 2,15 €/kg', '', '1,96'], [0, 31, 40]),
    cols(['1   HUEVOS L DOCENA', '', '2,69'], [0, 31, 40]),
    cols(['1   JAMÓN COCIDO LONCHAS', '', '2,35'], [0, 31, 40]),
    cols(['2   AGUA MINERAL 1,5L', '0,38', '0,76'], [0, 31, 40]),
    cols(['1   DETERGENTE LÍQUIDO 3L', '', '7,25'], [0, 31, 40]),
    dashes,
    big('TOTAL (€)', '16,61'),
    lr('TARJETA BANCARIA', '16,61'),
    dashes,
    cols(['IVA', 'BASE IMPONIBLE (€)', 'CUOTA (€)'], [0, 26, 40]),
    cols(['4%', '6,01', '0,24'], [0, 26, 40]),
    cols(['10%', '2,83', '0,28'], [0, 26, 40]),
    cols(['21%', '5,99', '1,26'], [0, 26, 40]),
    cols(['TOTAL', '14,83', '1,78'], [0, 26, 40]),
    '',
    'TARJ.: VISA ************2231',
    lr('AUT: 044916', 'N.OPER: 000217'),
    'IMPORTE: 16,61 EUR',
    '',
    'ARTÍCULOS: 8',
    c('GRACIAS POR SU VISITA'),
    c('SE ADMITEN DEVOLUCIONES CON TICKET'),
  ]),
};

const esServiceColumns: Column[] = [{ x: LEFT }, { x: RIGHT, align: 'right' }];

const esService: HeldOutPage = {
  id: 'es-service-telecom',
  language: 'es',
  kind: 'service',
  truth: {
    issuer: 'Fibranet Levante S.L.',
    invoice_number: 'FL-2504-118733',
    invoice_date: '2025-04-02',
    total_amount: 54.87,
  },
  printed: { invoice_date: '2 de abril de 2025', total_amount: '54,87 €' },
  size: A4,
  rules: [hr(160), hr(250), hr(272), hr(376), hr(420, 340, RIGHT)],
  runs: [
    t(LEFT, 62, 'Fibranet Levante S.L.', { size: 20, bold: true }),
    t(LEFT, 78, 'Fibra, fijo y móvil para hogares y empresas', { size: 9 }),
    t(RIGHT, 62, 'Tu factura de marzo', { size: 13, bold: true, align: 'right' }),
    ...pairs(
      LEFT,
      300,
      104,
      13,
      [
        ['Número de factura', 'FL-2504-118733'],
        ['Fecha de factura', '2 de abril de 2025'],
        ['Periodo facturado', 'del 01/03/2025 al 31/03/2025'],
        ['Número de cliente', '700418226'],
      ],
      { size: 9 },
    ),
    ...stack(340, 104, 13, ['Talleres Beltrán S.C.', 'Calle Mayor, 41, bajo', '12001 Castellón de la Plana'], {
      size: 10,
    }),
    ...pairs(
      LEFT,
      300,
      182,
      13,
      [
        ['Titular', 'Talleres Beltrán S.C.'],
        ['NIF titular', 'J12487305'],
        ['Dirección de instalación', 'Calle Mayor, 41, bajo, Castellón'],
      ],
      { size: 9 },
    ),
    t(340, 182, 'Importe total', { size: 10 }),
    t(340, 204, '54,87 €', { size: 20, bold: true }),
    t(340, 222, 'Cargo en cuenta a partir del 10/04/2025', { size: 8 }),
    t(LEFT, 266, 'Detalle de tu factura', { size: 11, bold: true }),
    ...rows(
      esServiceColumns,
      290,
      16,
      [
        ['Cuota Fibra 600 Mb + Fijo (01/03–31/03)', '35,00 €'],
        ['Línea móvil 20 GB (6** *** 418)', '12,00 €'],
        ['Llamadas fuera de tarifa', '1,35 €'],
        ['Descuento por permanencia', '-3,00 €'],
      ],
      { size: 9 },
    ),
    ...pairs(
      340,
      RIGHT,
      394,
      14,
      [
        ['Base imponible', '45,35 €'],
        ['IVA (21 %)', '9,52 €'],
      ],
      { size: 9 },
    ),
    ...pairs(340, RIGHT, 438, 14, [['TOTAL FACTURA', '54,87 €']], { size: 10.5, bold: true }),
    t(LEFT, 480, 'Se cargará en tu cuenta ES66 2100 0418 4502 0005 1332 a partir del 10/04/2025.', { size: 8.5 }),
    t(LEFT, 492, 'Permanencia hasta el 30/09/2025. Atención al cliente: 964 00 12 12.', { size: 8.5 }),
    t(297.64, 790, 'Fibranet Levante S.L. · CIF B12765430 · Avda. Hermanos Bou, 87 · 12003 Castellón de la Plana', {
      size: 7,
      grey: true,
      align: 'center',
    }),
    t(297.64, 799, 'Inscrita en el Registro Mercantil de Castellón, Tomo 1.804, Libro 1.366, Folio 88, Hoja CS-41207', {
      size: 7,
      grey: true,
      align: 'center',
    }),
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// Italian
// ---------------------------------------------------------------------------------------------------------------

const itItemColumns: Column[] = [
  { x: LEFT },
  { x: 100 },
  { x: 330 },
  { x: 380, align: 'right' },
  { x: 440, align: 'right' },
  { x: 500, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const itLetterhead: HeldOutPage = {
  id: 'it-letterhead-officine',
  language: 'it',
  kind: 'letterhead',
  truth: {
    issuer: 'Officine Meccaniche Ferraresi S.r.l.',
    invoice_number: '127/2025',
    invoice_date: '2025-03-17',
    total_amount: 1956.64,
  },
  printed: { invoice_date: '17/03/2025', total_amount: '€ 1.956,64' },
  size: A4,
  rules: [hr(104), hr(362), hr(446), hr(500, 340, RIGHT)],
  runs: [
    t(LEFT, 60, 'Officine Meccaniche Ferraresi S.r.l.', { size: 18, bold: true }),
    ...stack(
      LEFT,
      76,
      10,
      [
        "Via dell'Industria, 22 – 44124 Ferrara (FE) – Tel. 0532 771 402 – PEC: omferraresi@pec.it",
        'P.IVA e C.F. 01844720384 – Capitale sociale € 50.000,00 i.v. – REA FE-201933',
      ],
      { size: 7.5 },
    ),
    t(LEFT, 134, 'Spett.le', { size: 9 }),
    ...stack(
      LEFT,
      148,
      13,
      [
        'Agricola Padana S.p.A.',
        'Via Emilia Est, 1190',
        '41126 Modena (MO)',
        'P.IVA 02718630362',
        'Codice destinatario: M5UXCR1',
      ],
      { size: 10 },
    ),
    ...pairs(
      330,
      RIGHT,
      134,
      14,
      [
        ['Documento', 'Fattura'],
        ['Numero documento', '127/2025'],
        ['Data documento', '17/03/2025'],
        ['Codice cliente', 'C00318'],
        ['Pagamento', 'Bonifico 30 gg d.f.f.m.'],
        ['Scadenza', '30/04/2025'],
      ],
      { size: 9 },
    ),
    t(LEFT, 250, 'FATTURA', { size: 16, bold: true }),
    ...stack(LEFT, 274, 12, ['Vs. ordine n. 4500117 del 28/02/2025', 'Rif. DDT n. 88 del 10/03/2025 – porto franco'], {
      size: 9,
    }),
    ...rows(itItemColumns, 357, 16, [['Cod.', 'Descrizione', 'U.M.', 'Q.tà', 'Prezzo', 'IVA', 'Importo']], {
      size: 8.5,
      bold: true,
    }),
    ...rows(
      itItemColumns,
      378,
      16,
      [
        ['AT-40', 'Albero di trasmissione rettificato Ø 40', 'NR', '6', '148,00', '22', '888,00'],
        ['BC-40', 'Boccola in bronzo 40x50x30', 'NR', '12', '18,40', '22', '220,80'],
        ['LAV', 'Lavorazione CNC su disegno cliente', 'ORE', '7,5', '58,00', '22', '435,00'],
        ['TR', 'Trasporto', 'NR', '1', '60,00', '22', '60,00'],
      ],
      { size: 9 },
    ),
    ...pairs(
      340,
      RIGHT,
      464,
      14,
      [
        ['Totale imponibile', '€ 1.603,80'],
        ['IVA 22%', '€ 352,84'],
      ],
      { size: 9 },
    ),
    ...pairs(340, RIGHT, 516, 14, [['Totale documento', '€ 1.956,64']], { size: 10.5, bold: true }),
    t(LEFT, 560, 'Coordinate bancarie: IBAN IT47 K053 8713 0000 0000 1428 617 – BPER Banca, filiale di Ferrara', {
      size: 8.5,
    }),
    t(LEFT, 584, 'Copia di cortesia: il documento fiscalmente valido è la fattura elettronica trasmessa tramite SdI.', {
      size: 8,
      grey: true,
    }),
  ],
};

const itCaptionRowColumns: Column[] = [{ x: 60 }, { x: 180 }, { x: 280 }, { x: 370 }, { x: 450 }];
const itRowItemColumns: Column[] = [
  { x: LEFT },
  { x: 340, align: 'right' },
  { x: 380 },
  { x: 460, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const itCaptionRow: HeldOutPage = {
  id: 'it-caption-row-imballaggi',
  language: 'it',
  kind: 'caption-row',
  truth: {
    issuer: 'Lariana Imballaggi S.p.A.',
    invoice_number: 'FT 2025/00412',
    invoice_date: '2025-02-21',
    total_amount: 594.14,
  },
  printed: { invoice_date: '21/02/2025', total_amount: 'EUR 594,14' },
  size: A4,
  rules: [hr(236), hr(250), hr(268), hr(282), hr(300), hr(330), hr(462), hr(530, 340, RIGHT)],
  runs: [
    t(LEFT, 58, 'Lariana Imballaggi S.p.A.', { size: 17, bold: true }),
    t(LEFT, 74, 'Imballaggi per pasticceria, gelateria e ristorazione', { size: 8.5 }),
    ...stack(
      LEFT,
      88,
      10,
      ['Via Paolo Borsellino, 14 – 22070 Grandate (CO)', 'Tel. 031 450 118 – info@larianaimballaggi.it'],
      {
        size: 8,
      },
    ),
    t(330, 134, 'Spett.le', { size: 9 }),
    ...stack(330, 148, 13, ['Pasticceria Dolce Como S.r.l.s.', 'Via Vittorio Emanuele II, 71', '22100 Como (CO)'], {
      size: 10,
    }),
    t(330, 194, 'Destinazione merce: laboratorio di Via Milano, 12 – Como', { size: 8 }),
    ...rows(itCaptionRowColumns, 246, 14, [['TIPO DOCUMENTO', 'NUMERO', 'DATA', 'COD. CLIENTE', 'PAGINA']], {
      size: 7,
      grey: true,
    }),
    ...rows(itCaptionRowColumns, 262, 14, [['FATTURA DIFFERITA', 'FT 2025/00412', '21/02/2025', '000871', '1/1']], {
      size: 9.5,
    }),
    ...rows(itCaptionRowColumns, 278, 14, [['PARTITA IVA', 'CODICE FISCALE', 'PAGAMENTO', '', 'BANCA APPOGGIO']], {
      size: 7,
      grey: true,
    }),
    ...rows(
      itCaptionRowColumns,
      294,
      14,
      [['03518240136', '03518240136', 'RI.BA. 60 GG F.M.', '', 'Credito Valtellinese']],
      {
        size: 9,
      },
    ),
    ...rows(itRowItemColumns, 324, 16, [['Descrizione', 'Q.tà', 'U.M.', 'Prezzo', 'Importo']], {
      size: 8.5,
      bold: true,
    }),
    ...rows(
      itRowItemColumns,
      344,
      14,
      [
        ['DDT n. 311 del 06/02/2025', '', '', '', ''],
        ['Scatola torta 30x30x10 bianca', '200', 'PZ', '0,62', '124,00'],
        ['Vassoio oro 28 cm', '300', 'PZ', '0,35', '105,00'],
        ['Nastro raso 10 mm rosso, bobina 50 m', '10', 'PZ', '4,80', '48,00'],
        ['DDT n. 344 del 14/02/2025', '', '', '', ''],
        ['Sacchetti carta avana 26x35', '1000', 'PZ', '0,11', '110,00'],
        ['Pirottini n. 5 (conf. 1000)', '8', 'CF', '12,50', '100,00'],
      ],
      { size: 9 },
    ),
    t(LEFT, 480, 'Scadenze', { size: 8.5, bold: true }),
    t(LEFT, 493, '30/04/2025   EUR 594,14', { size: 8.5 }),
    t(LEFT, 512, 'Contributo CONAI assolto ove dovuto.', { size: 8 }),
    ...pairs(
      340,
      RIGHT,
      480,
      14,
      [
        ['Totale imponibile', '487,00'],
        ['IVA 22%', '107,14'],
      ],
      { size: 9 },
    ),
    ...pairs(340, RIGHT, 546, 14, [['TOTALE FATTURA', 'EUR 594,14']], { size: 10.5, bold: true }),
    t(297.64, 792, 'Lariana Imballaggi S.p.A. – Cap. soc. € 1.200.000 i.v. – R.E.A. CO-287541 – P.IVA 02491180138', {
      size: 7,
      grey: true,
      align: 'center',
    }),
  ],
};

const itReceipt: HeldOutPage = {
  id: 'it-till-supermercato',
  language: 'it',
  kind: 'till-receipt',
  truth: {
    issuer: 'SUPERMERCATI GARGANO S.R.L.',
    invoice_number: '0127-0043',
    invoice_date: '2025-03-18',
    total_amount: 24.29,
  },
  printed: { invoice_date: '18-03-2025', total_amount: '24,29' },
  rules: [],
  ...receipt([
    c('SUPERMERCATI GARGANO S.R.L.', { bold: true, big: true }),
    c('Via Napoli, 48'),
    c('71121 Foggia (FG)'),
    c('P.IVA 03982140718'),
    c('Tel. 0881 712 334'),
    '',
    c('DOCUMENTO COMMERCIALE', { bold: true }),
    c('di vendita o prestazione'),
    '',
    cols(['DESCRIZIONE', 'IVA', 'Prezzo(€)'], [0, 30, 40]),
    cols(['PASTA DI SEMOLA 500G', '4%', '0,89'], [0, 30, 40]),
    cols(['PASSATA POMODORO 700G', '4%', '1,19'], [0, 30, 40]),
    cols(['MOZZARELLA FIORDILATTE', '4%', '1,79'], [0, 30, 40]),
    cols(['OLIO EXTRAVERGINE 1L', '4%', '8,90'], [0, 30, 40]),
    cols(['PROSCIUTTO CRUDO 100G', '10%', '2,99'], [0, 30, 40]),
    cols(['ACQUA NATURALE 6X1,5L', '22%', '2,34'], [0, 30, 40]),
    cols(['VINO ROSSO IGT 75CL', '22%', '4,50'], [0, 30, 40]),
    cols(['DETERSIVO PIATTI 750ML', '22%', '1,69'], [0, 30, 40]),
    dashes,
    big('TOTALE COMPLESSIVO', '24,29'),
    lr('DI CUI IVA', '2,30'),
    dashes,
    lr('Pagamento contante', '30,00'),
    lr('Resto', '5,71'),
    lr('Importo pagato', '24,29'),
    '',
    '18-03-2025 18:22',
    'DOCUMENTO N. 0127-0043',
    'RT 99MEY012345',
    '',
    c('GRAZIE E ARRIVEDERCI'),
  ]),
};

const itServiceColumns: Column[] = [
  { x: LEFT },
  { x: 380, align: 'right' },
  { x: 460, align: 'right' },
  { x: RIGHT, align: 'right' },
];

const itService: HeldOutPage = {
  id: 'it-service-termoidraulica',
  language: 'it',
  kind: 'service',
  truth: {
    issuer: 'Termoidraulica Conti S.a.s.',
    invoice_number: '38/2025',
    invoice_date: '2025-04-09',
    total_amount: 2784.04,
  },
  printed: { invoice_date: '9 aprile 2025', total_amount: '€ 2.784,04' },
  size: A4,
  rules: [hr(100, LEFT, RIGHT, 1), hr(330), hr(414), hr(500, 340, RIGHT)],
  runs: [
    t(297.64, 56, 'Termoidraulica Conti S.a.s.', { size: 19, bold: true, align: 'center' }),
    t(297.64, 70, 'di Marco Conti & C.', { size: 9, align: 'center' }),
    t(297.64, 82, 'Via Pietro Cossa, 280/12 – 10151 Torino – Tel. 011 455 90 21 – P.IVA e C.F. 10234560018', {
      size: 7.5,
      align: 'center',
    }),
    t(297.64, 92, 'REA TO-1123344 – impianti termici, idraulici e di condizionamento', { size: 7.5, align: 'center' }),
    t(330, 130, 'Spett.le', { size: 9 }),
    ...stack(
      330,
      144,
      13,
      ['Hotel Bellavista S.r.l.', 'Corso Vittorio Emanuele II, 64', '10121 Torino (TO)', 'P.IVA 09871230017'],
      { size: 10 },
    ),
    t(LEFT, 240, 'Fattura n. 38/2025 del 9 aprile 2025', { size: 13, bold: true }),
    t(LEFT, 262, 'Oggetto: intervento del 02/04/2025 presso la Vostra struttura – sostituzione del circolatore', {
      size: 9,
    }),
    t(LEFT, 274, "dell'impianto di riscaldamento centralizzato (rapportino n. 1142).", { size: 9 }),
    ...rows(itServiceColumns, 325, 16, [['Descrizione', 'Quantità', 'Prezzo unit.', 'Importo']], {
      size: 8.5,
      bold: true,
    }),
    ...rows(
      itServiceColumns,
      346,
      16,
      [
        ['Circolatore elettronico flangiato DN 40', '1', '1.640,00', '1.640,00'],
        ['Valvole a sfera flangiate DN 40', '2', '96,00', '192,00'],
        ['Manodopera (2 operai × 5 ore)', '10', '38,00', '380,00'],
        ['Diritto di chiamata urgente', '1', '70,00', '70,00'],
      ],
      { size: 9 },
    ),
    t(LEFT, 432, 'Riepilogo IVA', { size: 8.5, bold: true }),
    ...rows(
      [{ x: LEFT }, { x: 180, align: 'right' }, { x: 250, align: 'right' }],
      445,
      12,
      [
        ['Aliquota', 'Imponibile', 'Imposta'],
        ['22%', '2.282,00', '502,04'],
      ],
      { size: 8.5 },
    ),
    ...pairs(
      340,
      RIGHT,
      432,
      14,
      [
        ['Imponibile', '€ 2.282,00'],
        ['IVA 22%', '€ 502,04'],
      ],
      { size: 9 },
    ),
    ...pairs(340, RIGHT, 516, 14, [['TOTALE DA PAGARE', '€ 2.784,04']], { size: 10.5, bold: true }),
    t(LEFT, 560, 'Modalità di pagamento: bonifico bancario a 30 giorni data fattura.', { size: 8.5 }),
    t(LEFT, 572, 'IBAN IT02 A030 6909 6061 0000 0104 219 – Intesa Sanpaolo, Torino', { size: 8.5 }),
    t(LEFT, 596, 'Copia analogica della fattura elettronica inviata allo SdI.', { size: 8, grey: true }),
  ],
};

export const HELD_OUT_PAGES: readonly HeldOutPage[] = [
  deLetterhead,
  deCaptionRow,
  deReceipt,
  deRestaurant,
  frLetterhead,
  frCaptionRow,
  frReceipt,
  frRestaurant,
  nlLetterhead,
  nlCaptionRow,
  nlReceipt,
  nlService,
  esLetterhead,
  esCaptionRow,
  esReceipt,
  esService,
  itLetterhead,
  itCaptionRow,
  itReceipt,
  itService,
];

// ---------------------------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------------------------

/** A fixed date for the info dictionary: the same page gives the same bytes. */
const FIXED_DATE = new Date(Date.UTC(2026, 11, 7));

function fontOf(run: PageRun): string {
  if (run.mono) return run.bold ? 'Courier-Bold' : 'Courier';
  return run.bold ? 'Helvetica-Bold' : 'Helvetica';
}

/** One page as a digital PDF (a text layer in pdfkit's built-in Helvetica and Courier; no images). */
export async function renderHeldOutPage(page: HeldOutPage): Promise<Buffer> {
  const document = new PDFDocument({
    autoFirstPage: false,
    compress: true,
    info: {
      Title: page.id,
      Producer: 'docbench held-out pages',
      Creator: 'docbench',
      CreationDate: FIXED_DATE,
      ModDate: FIXED_DATE,
    },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    document.on('end', resolve);
    document.on('error', reject);
  });
  document.addPage({ size: page.size, margin: 0 });
  for (const rule of page.rules) {
    document
      .moveTo(rule.x1, rule.y1)
      .lineTo(rule.x2, rule.y2)
      .lineWidth(rule.width ?? 0.6)
      .strokeColor('#000000')
      .stroke();
  }
  for (const run of page.runs) {
    document.font(fontOf(run)).fontSize(run.size);
    const width = document.widthOfString(run.text);
    const x = run.align === 'right' ? run.x - width : run.align === 'center' ? run.x - width / 2 : run.x;
    document
      .fillColor(run.grey ? '#555555' : '#000000')
      .text(run.text, x, run.y, { lineBreak: false, baseline: 'alphabetic' });
  }
  document.end();
  await done;
  return Buffer.concat(chunks);
}
