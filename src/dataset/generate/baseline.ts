/**
 * The simulated incumbent: a legacy OCR system whose markdown (and, for some documents, extraction) is the
 * truth passed through a seeded noise model. Its errors are the ones such systems make: 0/O, 1/l, 5/S
 * confusions, dropped or merged table cells, two-column fields read in the wrong order, lost lines, and
 * headings flattened to text. Every rate grows with the tier: digital < clean_scan < photo < fax.
 */
import { PAGE_BREAK, type Json, type JsonObject } from '../../types.js';
import type { Layout, LayoutBlock } from './layout.js';
import type { Random } from './prng.js';
import type { Tier } from './scan.js';
import { blockText, tableMarkdown } from './truth.js';

export interface NoiseProfile {
  /** Probability a confusable character is misread. */
  confusion: number;
  /** Probability any other character is dropped. */
  charDrop: number;
  /** Per table cell: dropped, or merged into the next cell. */
  cellDrop: number;
  cellMerge: number;
  /** Per pair of adjacent blocks: read in swapped order. */
  swap: number;
  /** Per block: lost entirely. */
  lineLoss: number;
  /** Per heading: the `#` marker lost. */
  headingFlat: number;
}

export const NOISE_PROFILES: Record<Tier, NoiseProfile> = {
  digital: {
    confusion: 0.004,
    charDrop: 0.001,
    cellDrop: 0.01,
    cellMerge: 0.02,
    swap: 0.03,
    lineLoss: 0,
    headingFlat: 0.3,
  },
  clean_scan: {
    confusion: 0.02,
    charDrop: 0.004,
    cellDrop: 0.04,
    cellMerge: 0.05,
    swap: 0.06,
    lineLoss: 0.02,
    headingFlat: 0.5,
  },
  photo: {
    confusion: 0.05,
    charDrop: 0.012,
    cellDrop: 0.08,
    cellMerge: 0.08,
    swap: 0.1,
    lineLoss: 0.06,
    headingFlat: 0.7,
  },
  fax: {
    confusion: 0.1,
    charDrop: 0.025,
    cellDrop: 0.14,
    cellMerge: 0.12,
    swap: 0.14,
    lineLoss: 0.12,
    headingFlat: 0.9,
  },
};

/** The classic OCR confusions, both ways. */
const CONFUSIONS: Record<string, string[]> = {
  '0': ['O', 'o', 'D'],
  O: ['0', 'D'],
  o: ['0'],
  '1': ['l', 'I', '7'],
  l: ['1', 'I'],
  I: ['1', 'l'],
  '5': ['S', '6'],
  S: ['5'],
  '8': ['B', '3'],
  B: ['8'],
  '2': ['Z'],
  Z: ['2'],
  '6': ['b', '5'],
  e: ['c'],
  m: ['rn'],
};

/** Misreads characters of `text` at the profile's rates. */
export function corruptText(text: string, profile: NoiseProfile, random: Random): string {
  let out = '';
  for (const char of text) {
    const options = CONFUSIONS[char];
    if (options && random.chance(profile.confusion)) out += random.pick(options);
    else if (!options && char !== ' ' && random.chance(profile.charDrop)) continue;
    else out += char;
  }
  return out;
}

function corruptRow(cells: string[], profile: NoiseProfile, random: Random): string[] {
  const out: string[] = [];
  for (let i = 0; i < cells.length; i++) {
    let cell = corruptText(cells[i]!, profile, random);
    if (i + 1 < cells.length && random.chance(profile.cellMerge)) {
      cell = `${cell} ${corruptText(cells[++i]!, profile, random)}`;
    } else if (random.chance(profile.cellDrop)) {
      continue;
    }
    out.push(cell);
  }
  return out;
}

function pageBaseline(blocks: LayoutBlock[], profile: NoiseProfile, random: Random): string {
  const kept = blocks.filter(() => !random.chance(profile.lineLoss));
  for (let i = 0; i + 1 < kept.length; i++) {
    // Reading order: a legacy engine reads across columns, so neighbouring blocks come out swapped.
    if (kept[i]!.kind !== 'row' && kept[i + 1]!.kind !== 'row' && random.chance(profile.swap)) {
      [kept[i], kept[i + 1]] = [kept[i + 1]!, kept[i]!];
      i++;
    }
  }
  const parts: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    const block = kept[i]!;
    if (block.kind === 'row') {
      const rows: string[][] = [];
      while (i < kept.length && kept[i]!.kind === 'row') {
        const row = kept[i] as Extract<LayoutBlock, { kind: 'row' }>;
        rows.push(
          row.header
            ? row.cells.map((cell) => corruptText(cell, profile, random))
            : corruptRow(row.cells, profile, random),
        );
        i++;
      }
      i--;
      parts.push(tableMarkdown(rows));
    } else if (block.kind === 'heading') {
      const text = corruptText(block.text, profile, random);
      parts.push(random.chance(profile.headingFlat) ? text : `${'#'.repeat(block.level)} ${text}`);
    } else {
      parts.push(corruptText(blockText(block), profile, random));
    }
  }
  return parts.join('\n\n');
}

/** baseline/<id>.md: the incumbent's markdown for the document, pages separated by PAGE_BREAK. */
export function buildBaselineMarkdown(layout: Layout, tier: Tier, random: Random): string {
  const profile = NOISE_PROFILES[tier];
  return `${layout.pages.map((page) => pageBaseline(page.blocks, profile, random)).join(`\n\n${PAGE_BREAK}\n\n`)}\n`;
}

/** Wrong in the ways a template-based extractor is: misread strings, lost values, US dates, lost line items. */
function corruptJson(value: Json, profile: NoiseProfile, random: Random, key: string): Json | undefined {
  if (typeof value === 'string') {
    if (random.chance(profile.lineLoss * 2)) return undefined;
    // The incumbent echoes dates as printed (a format-only error in the strict pass).
    if (/^\d{4}-\d{2}-\d{2}$/.test(value) && random.chance(0.3))
      return `${value.slice(5, 7)}/${value.slice(8, 10)}/${value.slice(0, 4)}`;
    return corruptText(value, { ...profile, confusion: profile.confusion * 2 }, random);
  }
  if (typeof value === 'number') {
    if (random.chance(profile.lineLoss * 2)) return undefined;
    if (random.chance(profile.confusion * 3)) return key === 'units' ? value + 1 : Math.round(value * 10) / 100;
    return value;
  }
  if (Array.isArray(value)) {
    const items: Json[] = [];
    for (const item of value) {
      if (random.chance(profile.cellDrop)) continue;
      const corrupted = corruptJson(item, profile, random, key);
      if (corrupted !== undefined) items.push(corrupted);
    }
    return items;
  }
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [childKey, child] of Object.entries(value)) {
      const corrupted = corruptJson(child, profile, random, childKey);
      if (corrupted !== undefined) out[childKey] = corrupted;
    }
    return out;
  }
  return value;
}

/** baseline/<id>.json: the incumbent's extraction, derived from the truth through the noise model. */
export function buildBaselineJson(truth: JsonObject, tier: Tier, random: Random): JsonObject {
  return corruptJson(truth, NOISE_PROFILES[tier], random, '') as JsonObject;
}
