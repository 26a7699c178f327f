/**
 * What the engine shares with a program that runs it: the logger it writes to, the option values it accepts,
 * the JSON it reads and writes and the error it throws for a bad option. The engine imports nothing of docbench
 * (docs/reference.md, "The package"): docbench's logger, OCR choice and date locale fit these shapes.
 */

/** Where the engine says what it does: `info` for the user, `warn`/`error` for problems, `debug` for detail. */
export type Logger = Record<'info' | 'warn' | 'error' | 'debug', (message: string) => void>;

/** The logger of a caller that gave none. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };

/** Which OCR reads scanned pages: PP-OCR where onnxruntime loads (`auto`), one of them, or the fallback. */
export const OCR_CHOICES = ['auto', 'pp-ocr', 'tesseract'] as const;
export type OcrChoice = (typeof OCR_CHOICES)[number];

/** How an ambiguous date such as 03/04/2024 is read: month first (US) or day first (EU). */
export type DateLocale = 'US' | 'EU';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type JsonSchema = { [key: string]: unknown };

/** Where one page's markdown ends and the next begins, in every markdown the service interface carries. */
export const PAGE_BREAK = '<!-- page-break -->';

/** An option the engine cannot honour here (an OCR that does not load): the caller's usage error, not a crash. */
export class EngineOptionError extends Error {
  override readonly name = 'EngineOptionError';
  /** The option at fault. */
  readonly subject: string;
  /** What the user can do about it, one sentence. */
  readonly hint: string;

  constructor(message: string, subject: string, hint: string) {
    super(message);
    this.subject = subject;
    this.hint = hint;
  }
}
