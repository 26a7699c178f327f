/** Whether a host to bind is loopback-only: what `docbench view` and `docbench serve` relax their rules for. */
import ipaddr from 'ipaddr.js';

/** `localhost`, or an address in 127/8 or ::1 (brackets allowed, an IPv4 address inside IPv6 judged as IPv4). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || (ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback');
}
