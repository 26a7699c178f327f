/**
 * Ground truth, derived from the same facts and layout that drew the document: the extraction (truth JSON),
 * the markdown (pages separated by PAGE_BREAK) and the text regions (one per layout block, inches).
 */
import { PAGE_BREAK, type JsonObject } from '../../types.js';
import type { RegionPage } from '../../service/index.js';
import type { Claim } from './claim.js';
import { formatAddress, formatFormName, formatName } from './documents.js';
import { runBox, type Layout, type LayoutBlock, type LayoutPage } from './layout.js';

const money = (cents: number): number => cents / 100;

/** What a perfect extraction of this document returns, printed values only (dates ISO, money as numbers). */
export function buildTruthJson(claim: Claim): JsonObject {
  const { patient, practice, coverage, totals, docType } = claim;
  const form = docType === 'cms1500';
  const patientJson: JsonObject = { name: form ? formatFormName(patient) : formatName(patient) };
  if (docType !== 'eob')
    Object.assign(patientJson, {
      date_of_birth: patient.dob,
      sex: patient.sex,
      address: formatAddress(patient.address),
      account_number: claim.accountNumber,
    });
  const provider: JsonObject = { name: practice.name, npi: practice.npi };
  if (docType !== 'eob') Object.assign(provider, { tax_id: practice.taxId, phone: practice.phone });
  if (docType !== 'eob') provider.address = formatAddress(practice.address);
  const insurance: JsonObject = {
    payer_name: coverage.payerName,
    member_id: coverage.memberId,
    group_number: coverage.groupNumber,
    subscriber_name: form ? formatFormName(coverage.subscriber) : formatName(coverage.subscriber),
  };
  const codes = claim.lines.map((line) => {
    const item: JsonObject = { date_of_service: line.dos, cpt: line.procedure.code };
    if (docType !== 'cms1500') item.description = docType === 'eob' ? line.procedure.short : line.procedure.description;
    if (docType !== 'eob') {
      if (line.modifier) item.modifier = line.modifier;
      item.diagnosis_pointer = line.pointer;
    }
    item.units = line.units;
    if (docType === 'itemized_bill') item.unit_price = money(line.unitPrice);
    item.charges = money(line.charge);
    if (docType === 'eob')
      Object.assign(item, {
        allowed: money(line.allowed ?? 0),
        paid: money(line.paid ?? 0),
        patient_responsibility: money(line.patientResponsibility ?? 0),
      });
    return item;
  });
  const summary: JsonObject = {
    total_charges: money(totals.charges),
    amount_paid: money(totals.paid),
    statement_date: claim.statementDate,
  };
  if (docType === 'eob') {
    Object.assign(summary, {
      allowed_amount: money(totals.allowed ?? 0),
      deductible: money(totals.deductible ?? 0),
      copay: money(totals.copay ?? 0),
      coinsurance: money(totals.coinsurance ?? 0),
      patient_responsibility: money(totals.patientResponsibility ?? 0),
      claim_number: claim.claimNumber,
    });
  } else {
    summary.balance_due = money(totals.balance ?? 0);
  }
  const truth: JsonObject = { patient: patientJson, provider, insurance };
  if (docType !== 'eob') truth.diagnosis_codes = claim.diagnoses.map(([code]) => code);
  truth.codes = codes;
  truth.billing_summary = summary;
  return truth;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** Markdown of one block; rows are handled by the table grouping in pageMarkdown. */
function blockMarkdown(block: Exclude<LayoutBlock, { kind: 'row' }>): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level)} ${block.text}`;
    case 'paragraph':
      return block.text;
    case 'field':
      return block.value ? `${block.label}: ${block.value}` : block.label;
  }
}

/** One pipe table from consecutive rows; the first row is the header. */
export function tableMarkdown(rows: string[][]): string {
  const [head, ...body] = rows;
  if (!head) return '';
  const line = (cells: string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(head), `|${head.map(() => ' --- |').join('')}`, ...body.map(line)].join('\n');
}

/** Blocks in layout order, consecutive rows of one table joined into a pipe table, blank lines between. */
export function pageMarkdown(blocks: LayoutBlock[]): string {
  const parts: string[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.kind !== 'row') {
      parts.push(blockMarkdown(block));
      continue;
    }
    const rows: string[][] = [];
    while (i < blocks.length && blocks[i]!.kind === 'row' && (blocks[i] as { table: number }).table === block.table) {
      rows.push((blocks[i] as { cells: string[] }).cells);
      i++;
    }
    i--;
    parts.push(tableMarkdown(rows));
  }
  return parts.join('\n\n');
}

/** The whole document's markdown: pages joined by a PAGE_BREAK line. */
export function buildTruthMarkdown(layout: Layout): string {
  return `${layout.pages.map((page) => pageMarkdown(page.blocks)).join(`\n\n${PAGE_BREAK}\n\n`)}\n`;
}

/** The text a region captures: a row's cells joined by spaces, a field as `Label: value`. */
export function blockText(block: LayoutBlock): string {
  switch (block.kind) {
    case 'row':
      return block.cells.filter(Boolean).join(' ');
    case 'field':
      return block.value ? `${block.label}: ${block.value}` : block.label;
    default:
      return block.text;
  }
}

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

function pageRegions(page: LayoutPage, number: number): RegionPage {
  return {
    page: number,
    width: page.width,
    height: page.height,
    bounding_boxes: page.blocks
      .filter((block) => block.runs.length > 0)
      .map((block) => {
        const boxes = block.runs.map(runBox);
        // Inches, top-left origin (docs/service-interface.md §2.3), clamped to the page.
        const minX = Math.max(0, Math.min(...boxes.map((box) => box[0])));
        const minY = Math.max(0, Math.min(...boxes.map((box) => box[1])));
        const maxX = Math.min(page.width, Math.max(...boxes.map((box) => box[2])));
        const maxY = Math.min(page.height, Math.max(...boxes.map((box) => box[3])));
        return {
          bounding_box: {
            min_x: round4(minX / 72),
            min_y: round4(minY / 72),
            max_x: round4(maxX / 72),
            max_y: round4(maxY / 72),
          },
          content: blockText(block),
        };
      }),
  };
}

/** truth/<id>.regions.json: one region per block, in the shape of /split's `pages`. */
export function buildTruthRegions(layout: Layout): RegionPage[] {
  return layout.pages.map((page, index) => pageRegions(page, index + 1));
}
