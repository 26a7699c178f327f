/**
 * What the client returns for each endpoint, after tolerant reading (see read-*.ts). These normalised shapes
 * are what results.jsonl stores and what the scorers read; the service's raw quirks stop at the client.
 */
import type { Static } from '@sinclair/typebox';
import type {
  CompareResultFormat,
  ExtractResultFormat,
  InchBoxFormat,
  MarkdownPageFormat,
  ProcessResultFormat,
  RegionPageFormat,
  SplitResultFormat,
} from '../endpoint-results.js';

/** The formats, with their documentation, are in src/endpoint-results.ts: results.jsonl stores these. */
export type ProcessResult = Static<typeof ProcessResultFormat>;
export type ExtractResult = Static<typeof ExtractResultFormat>;
export type MarkdownPage = Static<typeof MarkdownPageFormat>;
export type CompareResult = Static<typeof CompareResultFormat>;
export type InchBox = Static<typeof InchBoxFormat>;
export type RegionPage = Static<typeof RegionPageFormat>;
export type SplitResult = Static<typeof SplitResultFormat>;

export type EndpointResult = ProcessResult | ExtractResult | CompareResult | SplitResult;
