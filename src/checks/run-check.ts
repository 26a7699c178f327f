/**
 * `runCheck`: decides one check on one page's markdown the way olmOCR-bench's `tests.py` does
 * (docs/checks.md, "Semantics"), returning whether it passed and, when it did not, why.
 */
import { findNearMatches, partialRatio, ratio } from './fuzzy.js';
import { headingsOf, htmlTableGrids, markdownTableGrids, type TableGrid } from './table-grid.js';
import { codePoints, collapseSpaces, cpLength, isAlnum, normalizeCheckText, PY_SPACE } from './text.js';
import type {
  BaselineCheck,
  Check,
  CheckOutcome,
  FootnoteCheck,
  FormatCheck,
  OrderCheck,
  TableCheck,
  TextPresenceCheck,
} from './types.js';

const PASS: CheckOutcome = { passed: true, explanation: '' };
const fail = (explanation: string): CheckOutcome => ({ passed: false, explanation });

/** The first 40 characters of a text, for an explanation. */
const head = (text: string): string => codePoints(text).slice(0, 40).join('');

/** olmOCR-bench's fuzzy threshold: the share of a text's characters that must match for max_diffs edits. */
const threshold = (maxDiffs: number, text: string): number => 1 - maxDiffs / (cpLength(text) || 1);

/**
 * Decides `check` on `markdown`, the text of the page the check names. A math check is not decided here
 * (docbench cannot render it as olmOCR-bench does): it throws; callers count math checks as unsupported.
 */
export function runCheck(check: Check, markdown: string): CheckOutcome {
  switch (check.type) {
    case 'present':
    case 'absent':
      return runPresence(check, markdown);
    case 'order':
      return runOrder(check, markdown);
    case 'table':
      return runTable(check, markdown);
    case 'baseline':
      return runBaseline(check, markdown);
    case 'format':
      return runFormat(check, markdown);
    case 'footnote':
      return runFootnote(check, markdown);
    case 'math':
      throw new Error(`check "${check.id}": math checks are not supported (docs/checks.md, "Math")`);
  }
}

function runPresence(check: TextPresenceCheck, markdown: string): CheckOutcome {
  let query = check.text;
  let content = normalizeCheckText(markdown);
  if (!check.case_sensitive) {
    query = query.toLowerCase();
    content = content.toLowerCase();
  }
  if (check.first_n || check.last_n) {
    const chars = codePoints(content);
    const first = check.first_n ? chars.slice(0, check.first_n) : [];
    const last = check.last_n ? chars.slice(-check.last_n) : [];
    content = first.concat(last).join('');
  }
  const limit = threshold(check.max_diffs, query);
  const best = partialRatio(query, content);
  const found = best >= limit;
  if (found === (check.type === 'present')) return PASS;
  const what = check.type === 'present' ? `'${head(query)}…'` : `absence of '${head(query)}…'`;
  return fail(
    `expected ${what} at a match ratio threshold of ${limit.toFixed(3)}; the best match ratio was ${best.toFixed(3)}`,
  );
}

function runOrder(check: OrderCheck, markdown: string): CheckOutcome {
  const content = normalizeCheckText(markdown);
  const befores = findNearMatches(check.before, content, check.max_diffs);
  const afters = findNearMatches(check.after, content, check.max_diffs);
  if (befores.length === 0)
    return fail(`'before' text '${head(check.before)}…' not found within ${check.max_diffs} edits`);
  if (afters.length === 0)
    return fail(`'after' text '${head(check.after)}…' not found within ${check.max_diffs} edits`);
  const firstBefore = Math.min(...befores.map((m) => m.start));
  if (afters.some((m) => m.start > firstBefore)) return PASS;
  return fail(`'${head(check.before)}…' never comes before '${head(check.after)}…'`);
}

function runTable(check: TableCheck, markdown: string): CheckOutcome {
  const cellLimit = Math.max(0.5, threshold(check.max_diffs, check.cell));
  const grids: TableGrid[] = [
    ...(check.ignore_markdown_tables ? [] : markdownTableGrids(markdown)),
    ...htmlTableGrids(markdown),
  ];
  if (grids.length === 0) return fail('No tables found on the page');
  const reasons: string[] = [];
  for (const grid of grids) {
    for (const [slot, text] of grid.text) {
      if (ratio(check.cell, normalizeCheckText(text)) < cellLimit) continue;
      const failed: string[] = [];
      const relate = (expected: string, candidates: Iterable<string>): void => {
        if (!expected) return;
        const limit = Math.max(0.5, threshold(check.max_diffs, expected));
        let best = 0;
        let bestText: string | null = null;
        let ok = false;
        for (const other of candidates) {
          const otherText = normalizeCheckText(grid.text.get(other) ?? '');
          const similarity = ratio(expected, otherText);
          if (similarity > best) {
            best = similarity;
            bestText = otherText;
          }
          if (similarity >= limit) ok = true;
        }
        if (!ok) {
          failed.push(
            `the cell's neighbour '${bestText ?? ''}' doesn't match expected '${expected}' (best similarity ${best.toFixed(2)})`,
          );
        }
      };
      relate(check.up, grid.neighbours.up.get(slot) ?? []);
      relate(check.down, grid.neighbours.down.get(slot) ?? []);
      relate(check.left, grid.neighbours.left.get(slot) ?? []);
      relate(check.right, grid.neighbours.right.get(slot) ?? []);
      if (check.left_heading) relate(check.left_heading, headingsOf(grid, slot, 'left'));
      if (check.top_heading) relate(check.top_heading, headingsOf(grid, slot, 'up'));
      if (failed.length === 0) return PASS;
      reasons.push(...failed);
    }
  }
  if (reasons.length === 0)
    return fail(`No cell matching '${check.cell}' in any table (threshold ${cellLimit.toFixed(3)})`);
  return fail(`cells matching '${check.cell}' were found, but: ${reasons.join('; ')}`);
}

const IMAGE_TAG = /!\[[^\n]*?\]\([^\n]*?\)/g;
/** Characters a page's output should not hold: CJK ideographs, kana, and emoji (olmOCR-bench's baseline set). */
const DISALLOWED =
  /[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff\u{1f600}-\u{1f64f}\u{1f300}-\u{1f5ff}\u{1f680}-\u{1f6ff}\u{1f1e0}-\u{1f1ff}]/gu;

const alnumCount = (text: string): number => {
  let n = 0;
  for (const ch of text) if (isAlnum(ch)) n++;
  return n;
};

function runBaseline(check: BaselineCheck, markdown: string): CheckOutcome {
  if (check.max_length !== null) {
    const counted = check.max_length_skips_image_alt_tags ? markdown.replace(IMAGE_TAG, '') : markdown;
    const length = alnumCount(counted);
    if (length > check.max_length) return fail(`${length} characters were output for a page we expected to be blank`);
    return PASS;
  }
  if (alnumCount(markdown) === 0) return fail('The text contains no alpha numeric characters');
  const repeats = trailingRepeats(markdown, 5);
  const over = repeats.findIndex((count) => count > check.max_repeats);
  if (over >= 0) return fail(`the text ends with ${repeats[over]} repeating ${over + 1}-grams`);
  if (check.check_disallowed_characters) {
    const found = markdown.match(DISALLOWED);
    if (found) return fail(`Text contains disallowed characters ${found.join(' ')}`);
  }
  return PASS;
}

/**
 * For n = 1 … maxSize, how many times the text's last n characters repeat back to back at its end (whitespace
 * runs counted as one space), olmOCR's run-away repetition detector.
 */
export function trailingRepeats(text: string, maxSize: number): number[] {
  const chars = codePoints(collapseSpaces(text));
  const counts = new Array<number>(maxSize).fill(0);
  for (let size = 1; size <= maxSize && size <= chars.length; size++) {
    const end = chars.length;
    let count = 0;
    for (let pos = end - size; pos >= 0; pos -= size) {
      let same = true;
      for (let k = 0; k < size; k++) {
        if (chars[pos + k] !== chars[end - size + k]) {
          same = false;
          break;
        }
      }
      if (!same) break;
      count++;
    }
    counts[size - 1] = count;
  }
  return counts;
}

const FORMAT_PATTERNS: Record<FormatCheck['format'], RegExp[]> = {
  heading: [
    new RegExp(`(?:^|(?<=\\n))#{1,6}${PY_SPACE}+([^\\n]+?)(?=\\n|$)`, 'g'),
    /<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/gi,
  ],
  bold: [/\*\*([\s\S]*?)\*\*/g, /__([\s\S]*?)__/g, /<b[^>]*>([\s\S]*?)<\/b>/gi, /<strong[^>]*>([\s\S]*?)<\/strong>/gi],
  italic: [
    /(?<!\*)\*(?!\*)([\s\S]*?)(?<!\*)\*(?!\*)/g,
    /(?<!_)_(?!_)([\s\S]*?)(?<!_)_(?!_)/g,
    /<i[^>]*>([\s\S]*?)<\/i>/gi,
    /<em[^>]*>([\s\S]*?)<\/em>/gi,
  ],
};

function runFormat(check: FormatCheck, markdown: string): CheckOutcome {
  const found: string[] = [];
  for (const pattern of FORMAT_PATTERNS[check.format]) {
    for (const match of markdown.matchAll(pattern)) found.push(normalizeCheckText(match[1] ?? ''));
  }
  const query = check.case_sensitive ? check.text : check.text.toLowerCase();
  const candidates = check.case_sensitive ? found : found.map((t) => t.toLowerCase());
  const limit = threshold(check.max_diffs, query);
  if (candidates.some((text) => partialRatio(query, text) >= limit)) return PASS;
  const sample =
    candidates.length > 0
      ? `${check.format} text found: ${candidates
          .slice(0, 3)
          .map((t) => `'${cpLength(t) > 20 ? `${codePoints(t).slice(0, 20).join('')}…` : t}'`)
          .join(', ')}`
      : `no ${check.format} text on the page`;
  return fail(`'${head(check.text)}…' not found with ${check.format} formatting; ${sample}`);
}

const SUPERSCRIPT_DIGITS: Record<string, string> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Lower-cased letters and digits only, the form footnote text is compared in. */
const lettersAndDigits = (text: string): string =>
  codePoints(normalizeCheckText(text)).filter(isAlnum).join('').toLowerCase();

function runFootnote(check: FootnoteCheck, markdown: string): CheckOutcome {
  const chars = codePoints(markdown);
  // match offsets are UTF-16; the 200-character windows count code points, as Python's do
  const toCp = (offset: number): number => cpLength(markdown.slice(0, offset));
  const markers: Array<{ start: number; end: number }> = [];
  const collect = (pattern: RegExp): void => {
    for (const m of markdown.matchAll(pattern)) {
      markers.push({ start: toCp(m.index), end: toCp(m.index + m[0].length) });
    }
  };
  const marker = escapeRegExp(check.marker);
  collect(new RegExp(`\\[\\^${marker}\\](?!:)`, 'gu'));
  collect(new RegExp(`<sup[^>]*>${marker}</sup>`, 'giu'));
  if ([...check.marker].every((c) => c in SUPERSCRIPT_DIGITS)) {
    collect(new RegExp(escapeRegExp([...check.marker].map((c) => SUPERSCRIPT_DIGITS[c]).join('')), 'gu'));
  }
  if (markers.length === 0) {
    return fail(
      `Footnote marker '${check.marker}' not found as [^${check.marker}], <sup>${check.marker}</sup> or a superscript`,
    );
  }
  const near = (expected: string | null, side: 'before' | 'after'): boolean => {
    if (!expected) return true;
    const target = lettersAndDigits(expected);
    const limit = threshold(check.max_diffs, expected);
    return markers.some((pos) => {
      const window =
        side === 'before' ? chars.slice(Math.max(0, pos.start - 200), pos.start) : chars.slice(pos.end, pos.end + 200);
      const clean = codePoints(lettersAndDigits(window.join('')));
      if (clean.length === 0) return false;
      const length = Math.min(clean.length, cpLength(target) * 2);
      const part = side === 'before' ? clean.slice(clean.length - length) : clean.slice(0, length);
      return partialRatio(target, (length > 0 ? part : clean).join('')) >= limit;
    });
  };
  const failures: string[] = [];
  if (!near(check.appears_before_marker, 'before')) {
    failures.push(
      `'${head(check.appears_before_marker ?? '')}…' not found before any occurrence of marker '${check.marker}'`,
    );
  }
  if (!near(check.appears_after_marker, 'after')) {
    failures.push(
      `'${head(check.appears_after_marker ?? '')}…' not found after any occurrence of marker '${check.marker}'`,
    );
  }
  return failures.length > 0 ? fail(failures.join('; ')) : PASS;
}
