/** The service client: typed calls to /extract, /compare, /split and /v1/process. */
export { createClient } from './client.js';
export type {
  ClientOptions,
  ServiceClient,
  CallOutcome,
  DocumentInput,
  ExtractParams,
  CompareParams,
  ProcessParams,
  AttemptEvent,
} from './client.js';
export { ServiceError, isServiceError, ENDPOINT_PATHS } from './errors.js';
export { DEFAULT_RETRY_POLICY, RETRY_STATUS_REASONS, decideRetry, parseRetryAfter } from './retry.js';
export type { RetryPolicy } from './retry.js';
export { DEFAULT_AUTH } from './auth.js';
export type { AuthHeader } from './auth.js';
export { createRedactor } from './redact.js';
export { isHttpUrl, readRegionPages, readCompare, readSplit, readProcess } from './read-others.js';
export { readExtract } from './read-extract.js';
export { excerpt } from './redact.js';
export type { Redactor } from './redact.js';
export { ShapeReader } from './shape.js';
export type { ShapeReaderOptions } from './shape.js';
export type * from './types.js';
/** The transport pieces the provider kinds (src/systems/) build their own HTTP calls from. */
export { readResponseField } from './read-extract.js';
export { cancelled, unexpected, sleepFor, runAttempts, sendExchange } from './exchange.js';
export type { AttemptLoop, ExchangeSettings } from './exchange.js';
export { createLazyAgent } from './agent.js';
