/**
 * Library code never writes to the console: it takes a Logger. The CLI builds one for the terminal; tests
 * build one that records.
 */
export interface Logger {
  /** Progress and results meant for the user (stdout). */
  info(message: string): void;
  /** Something the user should look at, but not fatal (stderr). */
  warn(message: string): void;
  /** A failure (stderr). */
  error(message: string): void;
  /** Detail for --verbose (stderr). */
  debug(message: string): void;
}

export interface ConsoleLoggerOptions {
  quiet?: boolean;
  verbose?: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** Colour only for a TTY and never when NO_COLOR is set (https://no-color.org). */
export function shouldUseColor(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean((stream as NodeJS.WriteStream).isTTY);
}

export function createConsoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const color = shouldUseColor(stderr);
  const paint = (code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  return {
    info: (message) => {
      if (!options.quiet) stdout.write(`${message}\n`);
    },
    warn: (message) => stderr.write(`${paint(33, 'warning:')} ${message}\n`),
    error: (message) => stderr.write(`${paint(31, 'error:')} ${message}\n`),
    debug: (message) => {
      if (options.verbose) stderr.write(`${paint(2, message)}\n`);
    },
  };
}

/** A logger that drops everything: the default for library calls that were given none. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, debug() {} };

/** A logger that keeps every line, for tests. */
export function createMemoryLogger(): Logger & { lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const push = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, info: push('info'), warn: push('warn'), error: push('error'), debug: push('debug') };
}
