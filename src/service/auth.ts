/**
 * Where the key goes, per endpoint. The interface lists a different header per endpoint and the provider's
 * own docs disagree, so each is overridable in config (`auth.<endpoint>`).
 */
import type { Endpoint } from '../types.js';

export interface AuthHeader {
  /** Header name, e.g. `x-api-key` or `authorization`. */
  header: string;
  /** Prefix before the key, e.g. `Bearer`. @default none */
  scheme?: string;
}

/** docs/service-interface.md §5. */
export const DEFAULT_AUTH: Readonly<Record<Endpoint, AuthHeader>> = {
  extract: { header: 'x-api-key' },
  split: { header: 'X-API-KEY' },
  compare: { header: 'x-api-key' },
  process: { header: 'Authorization', scheme: 'Bearer' },
};

export function authHeaders(
  endpoint: Endpoint,
  apiKey: string | null,
  auth: Readonly<Record<Endpoint, AuthHeader>>,
): Record<string, string> {
  if (!apiKey) return {};
  const { header, scheme } = auth[endpoint];
  return { [header]: scheme ? `${scheme} ${apiKey}` : apiKey };
}
