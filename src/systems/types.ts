/**
 * The contract between the runner and every kind of system (docs/systems.md). A *system* is a named adapter
 * that answers some of the four operations the service interface defines (extract, compare, split, process)
 * with the same normalised results the interface client produces, so the runner, the scorers and the
 * reporters never know which kind answered. Adding a kind means adding one file that exports a `SystemKind`
 * and one row in the registry; nothing else changes.
 */
import type { Logger } from '../logger.js';
import type { DatasetDocument, Dataset, Endpoint, JsonSchema, Mode } from '../types.js';
import type { DocumentInput, ProcessParams, ServiceError, EndpointResult, RetryPolicy } from '../service/index.js';
import type { OptionReader } from './option-reader.js';
import type { SharedReader } from './readers.js';
import type { ReaderSpec } from './kinds/pipeline-settings.js';

/** The operations a system may support: the interface's four endpoints. */
export type Operation = Endpoint;

/** What the runner asks of a system for one planned call. */
export type OperationRequest =
  | { operation: 'extract'; mode: Mode; schema: JsonSchema; customContext: string | null }
  | { operation: 'compare'; mode: null; baselineMarkdown: string | null }
  | { operation: 'split'; mode: null }
  | { operation: 'process'; mode: null; params: ProcessParams };

export interface SystemCall {
  document: DatasetDocument;
  /** The document's bytes (or URL), loaded once by the runner. */
  input: DocumentInput;
  request: OperationRequest;
  /** Aborted when the run stops hard (rejected key) or the user interrupts twice. */
  signal: AbortSignal;
  /** Which repetition of the call this is (0 for the first; `--repeat N` makes N). @default 0 */
  repeat?: number;
}

/** What one call consumed, as the provider reported it (never estimated where the provider says nothing). */
export interface Usage {
  pages?: number;
  inputTokens?: number;
  outputTokens?: number;
}

/**
 * What the system said it was in its answer (docs/run-directory.md, "Reported identity"): the model snapshot,
 * fingerprint, API or model version its responses carry, under the name the provider gives it (`model`,
 * `system_fingerprint`, `apiVersion`, `AnalyzeDocumentModelVersion`, …). Never a secret, never a setting: only
 * what came back.
 */
export type ReportedIdentity = Record<string, string>;

interface OutcomeTiming {
  /** Attempts made (1 = no retry). */
  attempts: number;
  /** Wall time of the whole call, retries, backoff and polling included, ms. */
  latencyMs: number;
  /** Wall time of the last attempt alone, ms. */
  lastAttemptMs: number;
}

/**
 * How one call ended. A failure is data, never an exception: adapters map every provider error onto a
 * `ServiceError` with the retry class it deserves (`retryable`, `status`, code SERVICE_AUTH for a rejected
 * key, SERVICE_HTTP/SERVICE_NETWORK/SERVICE_TIMEOUT/SERVICE_RESPONSE_INVALID otherwise).
 */
export type SystemOutcome =
  | (OutcomeTiming & {
      ok: true;
      result: EndpointResult;
      usage?: Usage;
      /**
       * The provider's own response, already redacted and size-capped by the adapter, kept in results.jsonl so
       * a re-normalisation or re-score never calls the provider again. Absent for kinds whose `result` is
       * already the raw answer (interface, local, stored).
       */
      raw?: unknown;
      /** What the call cost as the system itself reports it (a stored `<id>.meta.json`); wins over `price`. */
      costUsd?: number;
      /** Of the cost, what another call of the run records too: a shared reader's answer (systems/readers.ts). */
      sharedCostUsd?: number;
      reported?: ReportedIdentity;
    })
  | (OutcomeTiming & { ok: false; error: ServiceError; usage?: Usage; reported?: ReportedIdentity });

/** A live system, created once per run. */
export interface System {
  readonly name: string;
  readonly kind: string;
  /**
   * Part of every cache key: changes whenever the answers could change (base URL, model, engine version,
   * command line, stored folder's content hash …). Never contains a secret.
   */
  readonly identity: string;
  readonly operations: ReadonlySet<Operation>;
  /**
   * Whether this system has an answer for this document and operation at all; the plan leaves out the calls
   * it has none for (a stored system holds outputs for some documents only). Absent: every document.
   */
  answers?(document: DatasetDocument, operation: Operation): boolean;
  /**
   * False when answering is as cheap as reading the cache (stored outputs): the runner then neither reads
   * nor writes the response cache for this system. @default true
   */
  readonly cacheable?: boolean;
  call(call: SystemCall): Promise<SystemOutcome>;
  /**
   * Loads what the first call would otherwise load (an HTTP client), before the runner's calls start: start-up
   * work, not part of any call's time. Absent: nothing to load.
   */
  prepare?(): Promise<void>;
  /** Releases connections, child processes, in-process engines. */
  close(): Promise<void>;
}

/** Prices in USD, from the system's `price` option; any combination may be given. */
export interface Price {
  perPage?: number;
  perCall?: number;
  perMillionInputTokens?: number;
  perMillionOutputTokens?: number;
}

/** Tokens per page of a document, in and out, for estimating token prices. */
export interface TokensPerPage {
  inputTokensPerPage: number;
  outputTokensPerPage: number;
}

/** Options every kind accepts, resolved with the run's defaults. */
export interface CommonSystemOptions {
  concurrency: number;
  ratePerSecond: number | null;
  timeoutMs: number;
  retry: RetryPolicy;
  price: Price | null;
  /** USD this system may spend in a run (needs a price); null: no budget of its own. */
  maxCostUsd?: number | null;
  /** `estimate:`, overriding the kind's tokens per page. */
  estimate?: Partial<TokensPerPage> | null;
}

/** What a kind's factory gets besides its own options. */
export interface SystemContext {
  name: string;
  common: CommonSystemOptions;
  dataset: Dataset;
  /**
   * The environment snapshot the CLI passed down (nothing below the CLI reads process.env). A kind reads only
   * the variables its options name (e.g. `apiKeyEnv`) and passes no other system's secret anywhere.
   */
  env: Readonly<Record<string, string | undefined>>;
  /** Redacts every secret of every system; adapters apply it to `raw` and to error excerpts. */
  redact: (text: string) => string;
  cacheDir: string;
  /** What relative paths in a system's options are resolved against: the config file's folder, else the working directory. */
  baseDir: string;
  logger: Logger;
  /** The readers pipelines read with, shared among the run's systems (set by `createSystems`). */
  readers?: ReaderPool;
}

/** Where a pipeline gets its reader (systems/readers.ts): `null` for `read: truth`. */
export interface ReaderPool {
  reader(spec: ReaderSpec | null): Promise<SharedReader>;
}

/**
 * One row of the registry. `parseOptions` validates the kind's own keys of `systems.<name>` (the common ones
 * are read by the caller, and a key outside `optionNames` is refused before) through the reader, which throws
 * a UsageError naming the file and `systems.<name>.<key>` for anything wrong.
 */
export interface SystemKind<Options = unknown> {
  readonly kind: string;
  /** One line for `docbench systems` and the docs. */
  readonly description: string;
  /** Where its options are documented, e.g. `docs/providers.md` (named in every message about them). */
  readonly docs: string;
  /** The kind's own option names, besides the common ones. */
  readonly optionNames: readonly string[];
  parseOptions(options: OptionReader): Options;
  /** The operations a system of this kind with these options supports. */
  operations(options: Options): readonly Operation[];
  /** The names of environment variables holding this system's secrets, so they are redacted everywhere. */
  secretEnvNames(options: Options): readonly string[];
  /**
   * Tokens one page typically costs a system of this kind, for estimates of token prices (docs/systems.md,
   * "Estimates"); `systems.<name>.estimate` overrides it. Absent: the generic default there.
   */
  readonly tokensPerPage?: TokensPerPage;
  /**
   * What a cached answer of a system with these options is filed under: the `identity` its `create` gives,
   * known without creating it, so `docbench plan` can tell which calls the cache holds. Absent: not checked.
   */
  identity?(options: Options, context: Pick<SystemContext, 'name' | 'env' | 'baseDir'>): Promise<string>;
  create(options: Options, context: SystemContext): Promise<System>;
}

/**
 * The part of a kind that reading a config needs. Provider kinds keep it in `kinds/<kind>-settings.ts`, apart
 * from their implementation, which the registry loads only when it creates a system of that kind.
 */
export type SystemKindSettings<Options = unknown> = Omit<SystemKind<Options>, 'create'>;
