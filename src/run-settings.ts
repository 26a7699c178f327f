/**
 * Readers of the settings a whole run and each of its systems share — concurrency, request rate, time-out,
 * retry policy — used for the top level of the config file (src/config.ts) and for every `systems.<name>`
 * (src/systems/config.ts), so both are checked, and worded, alike.
 */
import type { RetryPolicy } from './service/index.js';
import { read, type SectionSchema, type ValueReader } from './settings-reader.js';

export const wholeAtLeastOne = read.number({ min: 1, whole: true, what: 'a whole number ≥ 1' });
const milliseconds = read.number({ min: 0, what: 'a number of milliseconds ≥ 0' });

export const RETRY_SCHEMA = {
  maxAttempts: wholeAtLeastOne,
  baseDelayMs: milliseconds,
  maxDelayMs: milliseconds,
  rateLimitDelayMs: milliseconds,
  maxRetryAfterMs: milliseconds,
  retryStatuses: ((value, at, reader) =>
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((status) => Number.isInteger(status) && status >= 400 && status <= 599)
      ? (value as number[])
      : reader.expected(at, 'a list of HTTP error statuses, e.g. [429, 500, 502, 503, 504]', value)) as ValueReader<
    number[]
  >,
  retryTimeouts: read.boolean,
} satisfies SectionSchema;

export const readRetry: ValueReader<Partial<RetryPolicy>> = (value, at, reader) =>
  reader.section(value, at, RETRY_SCHEMA);
export const readConcurrency = wholeAtLeastOne;
export const readTimeoutMs = read.number({ min: 0, minExclusive: true, what: 'a number of milliseconds > 0' });
export const readRatePerSecond = read.number({
  min: 0,
  minExclusive: true,
  what: 'a number of requests per second > 0',
});
/** A spending limit in USD: `systems.<name>.maxCostUsd`, and `--max-cost` through the same reader. */
export const readBudget = read.number({ min: 0, what: 'an amount in USD ≥ 0' });
