/**
 * `docbench serve`: run the local reference implementation of the service interface until SIGINT/SIGTERM.
 * The first stdout line is the base URL, so scripts can read it.
 */
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { FAULT_MODES, isFaultMode, type FaultMode, type LocalServiceOptions } from '@docbench/local-engine';
import { startLocalEngine } from '../systems/index.js';
import { OCR_CHOICES, type DateLocale, type OcrChoice } from '../types.js';
import { defineCommand } from './context.js';
import { COMMAND_HEADERS } from './headers.js';

interface ServeArgs {
  port: number;
  host: string;
  'api-key-env'?: string;
  'data-dir'?: string;
  'max-upload-mb': number;
  ocr: OcrChoice;
  locale?: DateLocale;
  'ocr-workers': number;
  'latency-ms': number;
  'fault-rate': number;
  'fault-seed': number;
  'fault-modes'?: string;
  'allow-private-urls'?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** Where `docbench serve` keeps /compare data by default: a fixed path, so /evals links survive a restart. */
export const DEFAULT_SERVE_DATA_DIR = path.join(os.tmpdir(), 'docbench-serve', 'default');

/** Turns parsed flags into service options; the key comes from the named environment variable only. */
export function resolveServeOptions(argv: ServeArgs, env: NodeJS.ProcessEnv, cwd: string): LocalServiceOptions {
  if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535)
    throw new UsageError(`--port must be an integer 0–65535, got ${argv.port}`, { subject: '--port' });
  if (!(argv['max-upload-mb'] > 0))
    throw new UsageError(`--max-upload-mb must be positive, got ${argv['max-upload-mb']}`, {
      subject: '--max-upload-mb',
    });
  if (!Number.isInteger(argv['ocr-workers']) || argv['ocr-workers'] < 1 || argv['ocr-workers'] > 32)
    throw new UsageError(`--ocr-workers must be an integer 1–32, got ${argv['ocr-workers']}`, {
      subject: '--ocr-workers',
    });
  if (!(argv['latency-ms'] >= 0))
    throw new UsageError(`--latency-ms must be 0 or more, got ${argv['latency-ms']}`, { subject: '--latency-ms' });
  if (!(argv['fault-rate'] >= 0 && argv['fault-rate'] <= 1))
    throw new UsageError(`--fault-rate must be within 0–1, got ${argv['fault-rate']}`, { subject: '--fault-rate' });
  let apiKey: string | undefined;
  const keyEnv = argv['api-key-env'];
  if (keyEnv !== undefined) {
    apiKey = env[keyEnv];
    if (!apiKey)
      throw new UsageError(`--api-key-env ${keyEnv}: that environment variable is empty or not set`, {
        subject: '--api-key-env',
        hint: `export ${keyEnv}=<key> first, or drop --api-key-env to serve without auth`,
      });
  }
  let modes: FaultMode[] | undefined;
  if (argv['fault-modes']) {
    const names = argv['fault-modes']
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    const unknown = names.filter((m) => !isFaultMode(m));
    if (unknown.length > 0)
      throw new UsageError(`--fault-modes: unknown mode ${unknown.join(', ')}`, {
        subject: '--fault-modes',
        hint: `choose among ${FAULT_MODES.join(', ')}`,
      });
    modes = names as FaultMode[];
  }
  const options: LocalServiceOptions = {
    host: argv.host,
    port: argv.port,
    dataDir: argv['data-dir'] ? path.resolve(cwd, argv['data-dir']) : DEFAULT_SERVE_DATA_DIR,
    maxUploadBytes: Math.round(argv['max-upload-mb'] * 1024 * 1024),
    ocr: argv.ocr,
    ...(argv.locale ? { locale: argv.locale } : {}),
    ocrWorkers: argv['ocr-workers'],
    latencyMs: argv['latency-ms'],
    allowPrivateUrls: argv['allow-private-urls'] === true,
  };
  if (apiKey) options.apiKey = apiKey;
  if (argv['fault-rate'] > 0)
    options.faults = { rate: argv['fault-rate'], seed: argv['fault-seed'], ...(modes ? { modes } : {}) };
  return options;
}

export const serveCommand = defineCommand((context) => ({
  ...COMMAND_HEADERS.serve,
  builder: (yargs) =>
    yargs
      .option('port', { type: 'number', default: 0, describe: 'Port to listen on (0: any free port)' })
      .option('host', {
        type: 'string',
        default: '127.0.0.1',
        describe: 'Interface to bind (loopback by default); beyond loopback fileUrl fetches public addresses only',
      })
      .option('allow-private-urls', {
        type: 'boolean',
        default: false,
        describe: 'Beyond loopback, let fileUrl reach loopback, private, link-local and metadata addresses too',
      })
      .option('api-key-env', {
        type: 'string',
        describe: 'Require the key held by this environment variable (never pass a key as a flag)',
      })
      .option('data-dir', {
        type: 'string',
        describe: `Where /compare baselines are kept for /evals (default ${DEFAULT_SERVE_DATA_DIR})`,
      })
      .option('max-upload-mb', { type: 'number', default: 64, describe: 'Largest document accepted, MB (larger: 413)' })
      .option('ocr', {
        choices: OCR_CHOICES,
        default: 'auto' as OcrChoice,
        describe: 'OCR of scanned pages (auto: PP-OCR when installed, else tesseract.js)',
      })
      .option('locale', {
        choices: ['US', 'EU'] as const,
        describe: 'Day/month order of ambiguous dates (default: guessed per document)',
      })
      .option('ocr-workers', { type: 'number', default: 2, describe: 'tesseract.js workers' })
      .option('latency-ms', { type: 'number', default: 0, describe: 'Delay added before every API request' })
      .option('fault-rate', {
        type: 'number',
        default: 0,
        describe: 'Share of API requests that fail on purpose (0–1)',
      })
      .option('fault-seed', { type: 'number', default: 1, describe: 'Seed of the fault sequence' })
      .option('fault-modes', { type: 'string', describe: `Comma list among ${FAULT_MODES.join(', ')} (default all)` }),
  handler: async (argv) => {
    const logger = context.logger({ quiet: argv.quiet, verbose: argv.verbose });
    const options = resolveServeOptions(argv, context.env, context.cwd);
    const service = await startLocalEngine({ ...options, logger });
    // The first stdout line is the base URL, whatever --quiet says: scripts read it.
    context.stdout.write(`${service.baseUrl}\n`);
    logger.info(
      `docbench local service: ${options.apiKey ? 'key required' : 'no auth'}, OCR ${service.ocrVersion}, data in ${service.dataDir}; Ctrl-C to stop`,
    );
    await new Promise<void>((resolve) => {
      let removeInterrupt = () => {};
      const stop = () => {
        removeInterrupt();
        process.off('SIGTERM', stop);
        logger.info('stopping the local service');
        service.close().then(resolve, (error: unknown) => {
          logger.error(`closing the local service failed: ${error instanceof Error ? error.message : String(error)}`);
          resolve();
        });
      };
      removeInterrupt = context.onInterrupt(stop);
      process.on('SIGTERM', stop);
    });
  },
}));
