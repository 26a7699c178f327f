/**
 * One error family for the whole tool. Code branches on `code`, never on message text; `hint` says what the
 * user can do about it; subclasses carry their context as typed fields.
 */

/** Stable machine-readable error codes. Adding one is fine; renaming one is a breaking change. */
export type DocbenchErrorCode =
  | 'USAGE'
  | 'CONFIG_INVALID'
  | 'DATASET_INVALID'
  | 'INPUT_INVALID'
  | 'SERVICE_HTTP'
  | 'SERVICE_NETWORK'
  | 'SERVICE_TIMEOUT'
  | 'SERVICE_RESPONSE_INVALID'
  | 'SERVICE_AUTH'
  | 'SERVICE_OUTPUT_TRUNCATED'
  | 'SYSTEM_COMMAND_FAILED'
  | 'RUN_ABORTED'
  | 'RUN_UNREACHABLE'
  | 'RUN_STORE'
  | 'OUTPUT_UNWRITABLE'
  | 'SCORE_INVALID'
  | 'TRUTH_STALE'
  | 'INTERNAL';

export interface DocbenchErrorOptions {
  /** What the user can do about it, one sentence. */
  hint?: string;
  cause?: unknown;
}

export class DocbenchError extends Error {
  override readonly name: string = 'DocbenchError';
  readonly code: DocbenchErrorCode;
  readonly hint: string | undefined;

  constructor(code: DocbenchErrorCode, message: string, options: DocbenchErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }

  /** Message and hint on one line each, as printed by the CLI. */
  describe(): string {
    return this.hint ? `${this.message}\n  hint: ${this.hint}` : this.message;
  }
}

/** Bad flags, bad config, bad dataset: stops before any call, exit code 2. */
export class UsageError extends DocbenchError {
  override readonly name = 'UsageError';
  /** The flag, file or field at fault, when there is one. */
  readonly subject: string | undefined;

  constructor(message: string, options: DocbenchErrorOptions & { subject?: string; code?: DocbenchErrorCode } = {}) {
    super(options.code ?? 'USAGE', message, options);
    this.subject = options.subject;
  }
}

export function isDocbenchError(value: unknown): value is DocbenchError {
  return value instanceof DocbenchError;
}

/** The process exit codes, documented in the README. */
export const ExitCode = {
  /** The run (or command) completed. */
  OK: 0,
  /** A quality gate failed, or `diff` found a regression. */
  GATE_FAILED: 1,
  /** Invalid usage or input: nothing was called and nothing half-written. */
  USAGE: 2,
  /** The run could not complete: service unreachable, key rejected, aborted, output unwritable. */
  INCOMPLETE: 3,
  /** Second Ctrl-C: exit at once. */
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Maps an error to the exit code the README promises for it. */
export function exitCodeFor(error: unknown): ExitCode {
  if (!isDocbenchError(error)) return ExitCode.INCOMPLETE;
  switch (error.code) {
    case 'USAGE':
    case 'CONFIG_INVALID':
    case 'DATASET_INVALID':
    case 'INPUT_INVALID':
      return ExitCode.USAGE;
    default:
      return ExitCode.INCOMPLETE;
  }
}
