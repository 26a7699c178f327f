/**
 * The provider's raw response as kept in results.jsonl: redacted (every system's secrets) and size-capped,
 * so a re-normalisation or re-score never calls the provider again, and a huge answer cannot bloat the run.
 */
import type { Redactor } from '../../service/index.js';

/** Raw responses above this many characters of JSON are kept as a truncated excerpt. @default 256 KiB */
export const RAW_MAX_CHARS = 256 * 1024;

/** A kept raw response that was too large: its size and its head. */
export interface TruncatedRaw {
  truncated: true;
  chars: number;
  head: string;
}

export function captureRaw(value: unknown, redact: Redactor, maxChars: number = RAW_MAX_CHARS): unknown {
  const text = redact(JSON.stringify(value) ?? 'null');
  if (text.length <= maxChars) return JSON.parse(text) as unknown;
  const truncated: TruncatedRaw = { truncated: true, chars: text.length, head: text.slice(0, maxChars) };
  return truncated;
}
