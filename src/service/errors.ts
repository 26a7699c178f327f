/** The one error type for a failed service call, carrying everything a report or a retry decision needs. */
import { DocbenchError, type DocbenchErrorCode } from '../errors.js';
import type { Endpoint } from '../types.js';

export interface ServiceErrorDetails {
  endpoint: Endpoint;
  /** HTTP status of the last attempt; absent when no response arrived (network, timeout). */
  status?: number;
  /** The service's machine-readable code, e.g. `invalid_file_format`. */
  serviceCode?: string;
  /** For `invalid_file_format`: the formats the service says it accepts. */
  supportedFormats?: string[];
  /** The first few hundred characters of the response body, with the API key removed. */
  bodyExcerpt?: string;
  /** Whether another attempt could succeed (5xx, 429, network, timeout, a torn body). */
  retryable: boolean;
  hint?: string;
  cause?: unknown;
}

export class ServiceError extends DocbenchError {
  override readonly name = 'ServiceError';
  readonly endpoint: Endpoint;
  readonly status: number | undefined;
  readonly serviceCode: string | undefined;
  readonly supportedFormats: string[] | undefined;
  readonly bodyExcerpt: string | undefined;
  readonly retryable: boolean;
  /** Set by the retry layer: `Retry-After` of a 429/503, in ms. */
  retryAfterMs: number | undefined;

  constructor(code: DocbenchErrorCode, message: string, details: ServiceErrorDetails) {
    super(code, message, { hint: details.hint, cause: details.cause });
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.serviceCode = details.serviceCode;
    this.supportedFormats = details.supportedFormats;
    this.bodyExcerpt = details.bodyExcerpt;
    this.retryable = details.retryable;
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}

/** The path each endpoint is called on, as the interface names it. */
export const ENDPOINT_PATHS: Record<Endpoint, string> = {
  extract: '/extract',
  compare: '/compare',
  split: '/split',
  process: '/v1/process',
};
