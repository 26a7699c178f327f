/**
 * `docbench --help` without yargs (docs/performance.md, start-up): importing yargs alone takes longer than node's own start-up, so
 * the top-level help is rendered here from the definitions the yargs parser is configured with (program.ts,
 * headers.ts, global-options.ts), in yargs' layout, to the character. test/startup/help.test.ts compares
 * this text with what yargs prints at every width from 1 to 130 columns.
 *
 * yargs lays out with cliui, which measures and wraps with string-width and wrap-ansi; importing those
 * (Unicode width and emoji tables, ANSI parsing) costs close to half of what importing yargs does, so the
 * rules the top-level help needs are written out below: cliui's columns, padding, right-aligned cells and
 * inline spans, and wrap-ansi's hard wrap. A width here is a string's length, which is what string-width
 * measures for text without ANSI codes, wide or combining characters, like docbench's.
 */
import { globalOptions } from './global-options.js';
import { COMMAND_HEADERS } from './headers.js';
import { EPILOG, SCRIPT_NAME, USAGE } from './program.js';

/** yargs' own words and built-in flags, as its English locale has them (yargs/locales/en.json). */
const YARGS_WORDS = { commands: 'Commands:', options: 'Options:' };
const YARGS_BUILT_IN_OPTIONS = {
  help: { type: 'boolean', describe: 'Show help' },
  version: { type: 'boolean', describe: 'Show version number' },
};

/**
 * Whether `argv` asks for the top-level help and renderTopLevelHelp prints what yargs would. yargs translates
 * its words for the locale it reads from the process environment, the way its `detectLocale` does (LC_ALL,
 * LC_MESSAGES, LANG, LANGUAGE; English when it has no file for that locale, as for C and POSIX), so another
 * language goes through yargs; so does a width of 0 (a terminal reporting no columns), where yargs does not wrap.
 */
export function isTopLevelHelp(argv: readonly string[], width: number, processEnv: NodeJS.ProcessEnv): boolean {
  const locale = (
    processEnv.LC_ALL ||
    processEnv.LC_MESSAGES ||
    processEnv.LANG ||
    processEnv.LANGUAGE ||
    'en_US'
  ).replace(/[.:].*/, '');
  return argv.length === 1 && argv[0] === '--help' && width > 0 && /^(?:en(?:_.*)?|C|POSIX)$/.test(locale);
}

/** The text `docbench --help` prints at `width` columns, with its final newline. */
export function renderTopLevelHelp(width: number): string {
  const lines: Line[] = [];
  const div = (...columns: Column[]) => addRow(lines, width, columns, false);
  const span = (...columns: Column[]) => addRow(lines, width, columns, true);

  div({ text: USAGE.replace(/\$0/g, SCRIPT_NAME) });
  div({ text: '' });

  div({ text: YARGS_WORDS.commands });
  const commands = Object.values(COMMAND_HEADERS).map((header) => ({
    text: `${SCRIPT_NAME} ${header.command}`,
    describe: header.describe,
  }));
  const commandWidth = measureFirstColumn(commands, width);
  for (const command of commands) {
    span({ text: command.text, padLeft: 2, padRight: 2, width: commandWidth + 4 }, { text: command.describe });
    // yargs' row for a command's hints ([default], [aliases]), empty for every docbench command: drawn onto
    // the command's last line, it adds nothing unless that line is wider than the help (at a few columns).
    div({ text: '' });
  }
  div({ text: '' });

  div({ text: YARGS_WORDS.options });
  const options = Object.entries({ ...YARGS_BUILT_IN_OPTIONS, ...globalOptions }).map(([key, option]) => ({
    text: `--${key}`,
    type: option.type,
    describe: option.describe,
  }));
  const switchWidth = measureFirstColumn(options, width);
  for (const option of options) {
    span({ text: option.text, padLeft: 2, padRight: 2, width: switchWidth + 4 }, { text: option.describe });
    div({ text: `[${option.type}]`, padLeft: 2, alignRight: true });
  }
  div({ text: '' });

  // yargs passes the epilog to cliui with a newline after it, which cliui lays out as one row per line.
  for (const line of `${EPILOG}\n`.split('\n')) div({ text: line });

  // yargs removes the trailing blanks with replace(/\s*$/, ''), which trimEnd does in linear time.
  return `${lines
    .filter((line) => !line.hidden)
    .map((line) => line.text)
    .join('\n')
    .trimEnd()}\n`;
}

/** One cell of a cliui row: a fixed width (padding included) or a share of what the fixed cells leave. */
interface Column {
  text: string;
  width?: number;
  padLeft?: number;
  padRight?: number;
  alignRight?: boolean;
}

/** A rendered line; `span` lines let the next row's first line be drawn onto them, which then hides them. */
interface Line {
  text: string;
  span: boolean;
  hidden: boolean;
}

/** yargs' first-column width: the longest entry, but at most half the width. */
function measureFirstColumn(entries: readonly { text: string }[], width: number): number {
  return Math.min(Math.max(...entries.map((entry) => entry.text.length)), Math.trunc(width * 0.5));
}

/** cliui's `div` (or `span`): wraps each cell to its width and appends the row's lines. */
function addRow(lines: Line[], width: number, columns: readonly Column[], span: boolean): void {
  const fixedWidths = columns.flatMap((column) => (column.width === undefined ? [] : [column.width]));
  const unset = columns.length - fixedWidths.length;
  const shared = unset > 0 ? Math.floor((width - fixedWidths.reduce((sum, fixed) => sum + fixed, 0)) / unset) : 0;
  const cells = columns.map((column) => {
    const padLeft = column.padLeft ?? 0;
    const padRight = column.padRight ?? 0;
    const inner = (column.width ?? Math.max(shared, 1 + padLeft + padRight)) - padLeft - padRight;
    return { ...column, padLeft, padRight, inner, wrapped: wrapText(column.text, inner) };
  });
  const rowCount = Math.max(...cells.map((cell) => cell.wrapped.length));
  for (let row = 0; row < rowCount; row++) {
    let text = '';
    for (const cell of cells) {
      let content = (cell.wrapped[row] ?? '').padEnd(cell.inner);
      if (cell.alignRight) content = content.trim().padStart(cell.inner);
      text += ' '.repeat(cell.padLeft) + content + ' '.repeat(cell.padRight);
      // cliui tries this after each cell of a row's first line.
      if (row === 0 && lines.length > 0) text = drawInline(text, lines[lines.length - 1]!);
    }
    lines.push({ text: text.replace(/ +$/, ''), span, hidden: false });
  }
}

/** cliui's `renderInline`: a line whose leading blanks cover the span line before it is drawn onto that line. */
function drawInline(text: string, previous: Line): string {
  const leading = /^ */.exec(text)![0].length;
  const target = previous.text.trimEnd();
  if (!previous.span || leading < target.length) return text;
  previous.hidden = true;
  return target + ' '.repeat(leading - target.length) + text.trimStart();
}

/** wrap-ansi with `hard: true`: words wrap at `columns`, a word longer than that is broken across lines. */
function wrapText(text: string, columns: number): string[] {
  return text.split('\n').flatMap((line) => wrapLine(line, columns));
}

function wrapLine(line: string, columns: number): string[] {
  if (line.trim() === '') return [''];
  const rows = [''];
  for (const [index, word] of line.split(' ').entries()) {
    rows[rows.length - 1] = rows[rows.length - 1]!.trimStart();
    let rowLength = rows[rows.length - 1]!.length;
    if (index !== 0 && rowLength > 0) {
      rows[rows.length - 1] += ' ';
      rowLength++;
    }
    if (word.length > columns) {
      // A long word starts on a new line when that breaks it fewer times than starting it here would.
      const breaksStartingHere = 1 + Math.floor((word.length - (columns - rowLength) - 1) / columns);
      const breaksStartingNextLine = Math.floor((word.length - 1) / columns);
      if (breaksStartingNextLine < breaksStartingHere) rows.push('');
      breakWord(rows, word, columns);
      continue;
    }
    if (rowLength + word.length > columns && rowLength > 0 && word.length > 0) rows.push('');
    rows[rows.length - 1] += word;
  }
  return rows.map((row) => row.replace(/ +$/, ''));
}

/** Appends `word` to the last row a character at a time, starting a new row whenever one is full. */
function breakWord(rows: string[], word: string, columns: number): void {
  let visible = rows[rows.length - 1]!.length;
  const characters = [...word];
  for (const [index, character] of characters.entries()) {
    if (visible + 1 <= columns) {
      rows[rows.length - 1] += character;
    } else {
      rows.push(character);
      visible = 0;
    }
    visible++;
    if (visible === columns && index < characters.length - 1) {
      rows.push('');
      visible = 0;
    }
  }
}
