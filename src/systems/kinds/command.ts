/**
 * `command`: any executable, run once per document and operation (docs/systems.md, "The command
 * protocol"). `command:` is an argv array whose elements may hold the placeholders {file} {id} {schema}
 * {operation} {mode} {context}, also given as DOCBENCH_* environment variables. The program prints on stdout
 * what the interface's endpoint would return, read by the interface's own tolerant readers; for compare,
 * plain markdown is accepted too. It runs without a shell, in its own process group (killed whole on a
 * time-out), with a minimal environment: PATH, HOME, LANG, TMPDIR, the system's `env:` and the variables
 * its `passEnv:` names — never another system's key.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import {
  ServiceError,
  ShapeReader,
  decideRetry,
  excerpt,
  isServiceError,
  readCompare,
  readExtract,
  readProcess,
  readSplit,
  type Redactor,
  type EndpointResult,
} from '../../service/index.js';
import { splitMarkdownPages } from '../../dataset/index.js';
import { ENDPOINTS, PAGE_BREAK } from '../../types.js';
import type { Operation, OperationRequest, SystemCall, SystemContext, SystemKind, SystemOutcome } from '../types.js';
import type { OptionReader } from '../option-reader.js';

export interface CommandOptions {
  /** argv: the program and its arguments, placeholders allowed in each. */
  command: string[];
  /** Non-secret environment entries for the program. */
  env: Record<string, string>;
  /** Variables copied from docbench's environment (the program's own keys): redacted everywhere. */
  passEnv: string[];
  /** The operations the program answers. @default all four */
  operations: Operation[];
}

const PLACEHOLDERS = ['file', 'id', 'schema', 'operation', 'mode', 'context'] as const;
/** A pipeline's command extractor may also name the file holding its reader's markdown. */
export const EXTRACTOR_PLACEHOLDERS = [...PLACEHOLDERS, 'markdown'] as const;
type Placeholder = (typeof EXTRACTOR_PLACEHOLDERS)[number];
/** Variables of docbench's environment every program gets, when set. */
const BASE_ENV = ['PATH', 'HOME', 'LANG', 'TMPDIR'] as const;
/** stdout beyond this fails the call instead of filling memory. */
const MAX_STDOUT_BYTES = 64 * 1024 * 1024;
/** Only the end of stderr is kept: that is where programs say what went wrong. */
const STDERR_TAIL_BYTES = 8 * 1024;

/** `env:` holds settings that may change the answers; `passEnv:` holds keys, so only their names count. */
function commandIdentity(options: CommandOptions, baseDir: string): string {
  return `command:${JSON.stringify({ command: options.command, env: options.env, passEnv: options.passEnv, cwd: baseDir })}`;
}

export const commandKind: SystemKind<CommandOptions> = {
  kind: 'command',
  description: "any executable, run once per document and operation; prints the endpoint's answer on stdout",
  docs: 'docs/systems.md',
  optionNames: ['command', 'env', 'passEnv', 'operations'],
  parseOptions: (read) => parseCommandOptions(read, PLACEHOLDERS),
  operations: (options) => options.operations,
  secretEnvNames: (options) => options.passEnv,
  identity: async (options, context) => commandIdentity(options, context.baseDir),
  async create(options, context) {
    const caller = await createCommandCaller(options, context);
    return {
      name: context.name,
      kind: 'command',
      identity: caller.identity,
      operations: new Set(options.operations),
      call: (call) => caller.call(call, null),
      close: caller.close,
    };
  },
};

/**
 * The options of a command, its argv checked for the placeholders it may use (`{markdown}` only in a pipeline's
 * extractor, docs/systems.md).
 */
export function parseCommandOptions(read: OptionReader, placeholders: readonly string[]): CommandOptions {
  const command = read.value('command');
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((part) => typeof part === 'string') ||
    (command[0] as string).trim() === ''
  ) {
    read.fail(
      'command',
      'expected an array of strings: the program and its arguments (no shell)',
      'e.g. command: [python3, tools/ocr.py, "{operation}", "{file}"]',
    );
  }
  for (const part of command as string[]) {
    for (const match of part.matchAll(/\{([a-z_]+)\}/g)) {
      if (!placeholders.includes(match[1]!))
        read.fail(
          'command',
          `has the unknown placeholder {${match[1]}}`,
          `placeholders: ${placeholders.map((p) => `{${p}}`).join(' ')}`,
        );
    }
  }
  const env = read.envMap('env');
  const reserved = Object.keys(env).find((name) => name.startsWith('DOCBENCH_'));
  if (reserved) read.fail(`env.${reserved}`, 'is set by docbench for every call (DOCBENCH_* is reserved)');
  return {
    command: command as string[],
    env,
    passEnv: read.envNames('passEnv'),
    operations: read.optionalStringList('operations', ENDPOINTS) ?? [...ENDPOINTS],
  };
}

/** What runs a command system's program, or a pipeline's command extractor (given the markdown). */
export interface CommandCaller {
  identity: string;
  /** `markdown`: the pages a pipeline's reader gave, for `{markdown}` and DOCBENCH_MARKDOWN; null otherwise. */
  call(call: SystemCall, markdown: readonly string[] | null): Promise<SystemOutcome>;
  close(): Promise<void>;
}

export async function createCommandCaller(options: CommandOptions, context: SystemContext): Promise<CommandCaller> {
  const env = baseEnvironment(options, context);
  checkExecutable(options.command[0]!, env.PATH ?? '', context);
  const scratch = await mkdtemp(path.join(tmpdir(), 'docbench-command-'));
  const files = createScratchFiles(scratch);
  const schemaFile = files.write('schema.json', JSON.stringify(context.dataset.schema));
  return {
    identity: commandIdentity(options, context.baseDir),
    async call(call, markdown) {
      const text = markdown === null ? null : markdown.join(`\n\n${PAGE_BREAK}\n\n`);
      const values: Record<Placeholder, string> = {
        file: 'fileUrl' in call.input ? call.input.fileUrl : (call.document.file ?? ''),
        id: call.document.id,
        schema: call.request.operation === 'extract' ? await schemaFile : '',
        operation: call.request.operation,
        mode: call.request.mode ?? '',
        context:
          call.request.operation === 'extract' && call.request.customContext
            ? await files.write(`context-${hash(call.request.customContext)}.txt`, call.request.customContext)
            : '',
        markdown: text === null ? '' : await files.write(`markdown-${call.document.id}-${hash(text)}.md`, text),
      };
      return runWithRetry(options, context, env, values, call, text !== null);
    },
    close: () => rm(scratch, { recursive: true, force: true }),
  };
}

/** The environment every call starts from: the minimal set, `env:` and `passEnv:`. */
function baseEnvironment(options: CommandOptions, context: SystemContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV, ...options.passEnv]) {
    const value = context.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...options.env };
}

/** A program that cannot start is a configuration mistake, not a failure of every document: exit 2 now. */
function checkExecutable(program: string, searchPath: string, context: SystemContext): void {
  if (program.includes('{')) return;
  const candidates = program.includes('/')
    ? [path.resolve(context.baseDir, program)]
    : searchPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
  const found = candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
  if (!found) {
    const subject = `systems.${context.name}.command`;
    throw new UsageError(
      `${subject}: ${JSON.stringify(program)} is not an executable ${program.includes('/') ? `file (relative to ${context.baseDir})` : 'on the PATH'}`,
      {
        code: 'CONFIG_INVALID',
        subject,
        hint: 'name an installed program (e.g. node, python3) or a path relative to the config file',
      },
    );
  }
}

/** Files the placeholders point at, written once each. */
function createScratchFiles(dir: string): { write(name: string, text: string): Promise<string> } {
  const written = new Map<string, Promise<string>>();
  return {
    write(name, text) {
      let file = written.get(name);
      if (!file) {
        const target = path.join(dir, name);
        file = writeFile(target, text).then(() => target);
        written.set(name, file);
      }
      return file;
    },
  };
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

async function runWithRetry(
  options: CommandOptions,
  context: SystemContext,
  baseEnv: Record<string, string>,
  values: Record<Placeholder, string>,
  call: SystemCall,
  withMarkdown: boolean,
): Promise<SystemOutcome> {
  const argv = options.command.map((part) =>
    part.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (name in values ? values[name as Placeholder] : whole)),
  );
  const env: Record<string, string> = { ...baseEnv, DOCBENCH_PAGE_BREAK: PAGE_BREAK };
  for (const name of withMarkdown ? EXTRACTOR_PLACEHOLDERS : PLACEHOLDERS)
    env[`DOCBENCH_${name.toUpperCase()}`] = values[name];
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    const attemptStarted = performance.now();
    let error: ServiceError;
    try {
      const stdout = await runOnce(argv, env, context, call.request.operation, call.signal);
      const result = readOutput(call.request, stdout, context.redact);
      const now = performance.now();
      return { ok: true, result, attempts: attempt, latencyMs: now - started, lastAttemptMs: now - attemptStarted };
    } catch (caught) {
      error = isServiceError(caught)
        ? caught
        : new ServiceError('SYSTEM_COMMAND_FAILED', context.redact(String((caught as Error).message)), {
            endpoint: call.request.operation,
            retryable: false,
            cause: caught,
          });
    }
    const lastAttemptMs = performance.now() - attemptStarted;
    const decision = call.signal.aborted
      ? ({ retry: false } as const)
      : decideRetry(error, attempt, context.common.retry);
    if (!decision.retry)
      return { ok: false, error, attempts: attempt, latencyMs: performance.now() - started, lastAttemptMs };
    await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
  }
}

/** Runs the program once; resolves to its stdout, or throws a ServiceError saying why the call failed. */
function runOnce(
  argv: string[],
  env: Record<string, string>,
  context: SystemContext,
  operation: Operation,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal.aborted)
      return reject(
        new ServiceError('RUN_ABORTED', 'call cancelled: the run was interrupted', {
          endpoint: operation,
          retryable: false,
        }),
      );
    // detached: the program leads a process group of its own, so a time-out kills whatever it started too.
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: context.baseDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let ended: ServiceError | null = null;
    const killGroup = (reason: ServiceError) => {
      ended ??= reason;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(
      () =>
        killGroup(
          new ServiceError(
            'SERVICE_TIMEOUT',
            `no answer within ${context.common.timeoutMs} ms: the program was killed`,
            {
              endpoint: operation,
              retryable: true,
              hint: 'raise timeoutMs of this system if the program is slow on large documents',
            },
          ),
        ),
      context.common.timeoutMs,
    );
    const onAbort = () =>
      killGroup(
        new ServiceError('RUN_ABORTED', 'call cancelled: the run was interrupted', {
          endpoint: operation,
          retryable: false,
        }),
      );
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT_BYTES)
        killGroup(
          new ServiceError(
            'SERVICE_RESPONSE_INVALID',
            `more than ${MAX_STDOUT_BYTES} bytes on stdout: not read further`,
            { endpoint: operation, retryable: false },
          ),
        );
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    const finish = (error: ServiceError | null, text = '') => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(text);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(
        new ServiceError(
          'SYSTEM_COMMAND_FAILED',
          `could not start ${path.basename(argv[0]!)}: ${error.code ?? error.message}`,
          { endpoint: operation, retryable: false, hint: 'check the program in command:' },
        ),
      );
    });
    child.on('close', (code, signalName) => {
      const tail = excerpt(stderr.toString('utf8'), context.redact);
      if (ended) return finish(withStderr(ended, tail));
      if (code !== 0) {
        const how = code === null ? `was killed by ${signalName}` : `exited with code ${code}`;
        return finish(
          new ServiceError('SYSTEM_COMMAND_FAILED', `${path.basename(argv[0]!)} ${how}${tail ? `: ${tail}` : ''}`, {
            endpoint: operation,
            retryable: false,
            ...(tail ? { bodyExcerpt: tail } : {}),
            hint: 'run the command by hand on this document to see why',
          }),
        );
      }
      finish(null, Buffer.concat(stdout).toString('utf8'));
    });
  });
}

function withStderr(error: ServiceError, tail: string): ServiceError {
  if (!tail || error.code === 'RUN_ABORTED') return error;
  return new ServiceError(error.code, error.message, {
    endpoint: error.endpoint,
    retryable: error.retryable,
    bodyExcerpt: tail,
    ...(error.hint ? { hint: error.hint } : {}),
  });
}

/** stdout → the operation's normalised result, by the interface's readers; compare also takes plain markdown. */
function readOutput(request: OperationRequest, stdout: string, redact: Redactor): EndpointResult {
  const operation = request.operation;
  const reader = new ShapeReader(operation, () => excerpt(stdout, redact), { redact });
  let body: unknown;
  try {
    body = JSON.parse(stdout);
  } catch {
    // Plain markdown, even none at all: a program that found no text on the page said so.
    if (operation === 'compare') {
      return {
        success: true,
        pages: splitMarkdownPages(stdout).map((content) => ({ content, width: null, height: null })),
        dashboardUrl: null,
        comparisonId: null,
        failedPages: 0,
        failedPageList: [],
      };
    }
    return reader.fail(
      '(stdout)',
      stdout.trim() === '' ? 'is empty' : `is not JSON (${operation} must print the endpoint's JSON answer)`,
    );
  }
  switch (operation) {
    case 'extract':
      // The interface reader takes a missing `response` as an empty answer; from a program that is nearly
      // always the extraction printed bare, which deserves a message rather than a silent zero.
      if (typeof body === 'object' && body !== null && !Array.isArray(body) && !('response' in body)) {
        reader.fail('response', 'is missing: print {"response": {...the extracted fields...}}');
      }
      return readExtract(body, reader);
    case 'compare':
      return readCompare(body, reader);
    case 'split':
      return readSplit(body, reader);
    case 'process':
      return readProcess(body, reader);
  }
}
