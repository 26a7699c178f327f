/**
 * Which addresses `docbench serve` may fetch a `fileUrl` from (docs/reference.md, "fileUrl beyond
 * loopback"). Bound to loopback (contract tests, the runner) it fetches any address, as a test server must.
 * Bound beyond loopback it is reachable by others, who could otherwise make it fetch what only it can reach
 * (server-side request forgery): then only public unicast addresses are allowed, unless --allow-private-urls.
 * The rule is applied to the address actually connected to, on every hop: an IP literal before any
 * connection, a DNS name by the connection's own lookup (so a name cannot resolve to one address when checked
 * and another when connected), and each redirect is followed by hand and checked again.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { HttpProblem } from './http-problem.js';

/** Cloud instance-metadata endpoints, named apart from the ranges they sit in since they are the usual target. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2']);

/**
 * ipaddr.js's range names, as the refusal names them. Everything but `unicast` (public) is refused; the names
 * below are the ones the refusal spells out, any other reserved range is named as ipaddr.js calls it.
 */
const RULE_NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  unspecified: 'unspecified',
  carrierGradeNat: 'carrier-grade NAT (shared)',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved',
};

/** Why `address` may not be fetched beyond loopback (`metadata`, `loopback`, `private`, …); null for a public address. */
export function refusedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString()))
    return 'metadata';
  const range = parsed.range();
  return range === 'unicast' ? null : (RULE_NAMES[range] ?? range);
}

/** Whether a host to bind is loopback only (`localhost`, 127/8, ::1, brackets allowed): then any address may be fetched. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || refusedRange(bare) === 'loopback';
}

/** The 400 answer: the URL's host, the address and the rule, and how to allow it. */
export function refusal(host: string, address: string, rule: string): HttpProblem {
  const via = host === address ? '' : ` (${host} resolves to it)`;
  return new HttpProblem(
    400,
    'file_url_forbidden',
    `fileUrl refused: ${address}${via} is a ${rule} address, and docbench serve listening beyond loopback fetches public addresses only (rule: ${rule}); start it with --allow-private-urls to allow it`,
    { rule, address, host },
  );
}

/** The error a refused lookup fails the connection with; the fetch's caller turns it back into the refusal. */
export class RefusedAddressError extends Error {
  constructor(readonly problem: HttpProblem) {
    super(problem.message);
  }
}

/** Why an address may not be fetched (a rule's name), or null when it may: `refusedRange` beyond loopback. */
export type AddressRule = (address: string) => string | null;

/**
 * A `lookup` for the connections of fileUrl downloads: resolves as usual, then refuses the connection when any
 * address the name resolves to breaks `rule` (one public address among private ones does not make it safe:
 * the connection could take any of them).
 */
export function guardedLookup(rule: AddressRule) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const refused = rule(address);
        if (refused !== null) return callback(new RefusedAddressError(refusal(hostname, address, refused)), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** The refusal of an IP literal in a URL's host, before any connection; null for a DNS name or an allowed address. */
export function refuseLiteral(url: URL, rule: AddressRule): HttpProblem | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(host)) return null;
  const refused = rule(host);
  return refused === null ? null : refusal(host, host, refused);
}
