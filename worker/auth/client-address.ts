// The address sign-in limits count a client by (rate-limit.ts). An IPv6 subscriber is routinely given a
// whole /64 and can change the rest of its address at will, so counting whole IPv6 addresses would give
// one client 2^64 keys: it is counted by its /64.
import ipaddr from "ipaddr.js";

/** IPv4 as it is, IPv6 as its /64 (an IPv4-mapped one as its IPv4); anything else as given. */
export function clientAddress(raw: string): string {
  if (!ipaddr.isValid(raw)) return raw;
  const address = ipaddr.process(raw);
  if (address instanceof ipaddr.IPv4) return address.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`);
  return `${network.toRFC5952String()}/64`;
}
