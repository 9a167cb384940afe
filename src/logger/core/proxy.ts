// The client's address behind proxies: the `trustProxy` option. The walk is Express's
// (proxy-addr's): start at the peer (the socket's address), and while the address in hand is
// trusted, step to the next address of the forwarding header, read from its right end (the
// entry the nearest proxy appended) towards the left (what the client itself sent). The first
// address not trusted, or the last one reached, is the client's. What differs from Express:
//   - the header is one the operator names, X-Forwarded-For (Express's) or RFC 7239
//     `Forwarded`, never both: with both read, a client could send the one the proxies do not
//     rewrite and pick its own address;
//   - every address is checked as an IP address (strict dotted-decimal IPv4, RFC 4291 IPv6),
//     its port dropped. An entry that is not one (garbage, a port-only value, `unknown`, an
//     obfuscated `Forwarded` identifier, an element without `for`) ends the walk at the
//     address before it, the last hop known: a line never carries a client-chosen text as the
//     address, and ECS's `client.ip` stays an IP (Elasticsearch rejects a document otherwise).
//     Express answers the entry as it is. An IPv6 zone (`%eth0`) is taken only on the socket's
//     own address: after the `%` of a header's entry is whatever text the client chose;
//   - an empty entry (`,,`, spaces and tabs alone) is no entry, as RFC 9110's list rule says:
//     skipped, not a hop, as Express does; the walk ends on any run of commas;
//   - `127.1`, `0x7f.0.0.1` or `0177.0.0.1` are not addresses here (WHATWG URL and some IP
//     libraries read them as 127.0.0.1): a trust list cannot be met by an obfuscated spelling.
// Nothing here runs unless the option is on; the header is parsed once per request, lazily,
// from the right, only as far as the trusted hops go.

import { isOff, isUnset } from './option-off.js';

/** An address as 16 bytes: IPv4 as its IPv4-mapped IPv6 form (::ffff:a.b.c.d). */
type Bytes = Uint8Array;

const IPV4 =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
/** RFC 6874's zone id after `%`, as a socket address may carry (`fe80::1%eth0`). */
const ZONE = /%[\w.~-]+$/;

function ipv4Bytes(text: string, into: Bytes, at: number): boolean {
  const match = IPV4.exec(text);
  if (match === null) return false;
  for (let i = 0; i < 4; i++) into[at + i] = Number(match[i + 1]);
  return true;
}

/**
 * RFC 4291 section 2.2: eight groups of 1 to 4 hex digits, at most one `::` standing for one
 * or more zero groups, the last 32 bits optionally in dotted decimal.
 */
function ipv6Bytes(text: string): Bytes | undefined {
  const bytes = new Uint8Array(16);
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' ? [] : (halves[0] as string).split(':');
  const tail = halves.length === 1 || halves[1] === '' ? [] : (halves[1] as string).split(':');
  const groups = [...head, ...tail];
  let words = groups.length;
  const last = groups[groups.length - 1];
  const dotted = last?.includes('.') === true;
  if (dotted) words += 1;
  if (halves.length === 1 ? words !== 8 : words > 7) return undefined;
  const put = (list: string[], from: number): boolean => {
    let at = from;
    for (const group of list) {
      if (group.includes('.')) {
        if (group !== last || at !== 12 || !ipv4Bytes(group, bytes, 12)) return false;
        at += 4;
        continue;
      }
      if (!HEX_GROUP.test(group)) return false;
      const value = Number.parseInt(group, 16);
      bytes[at] = value >> 8;
      bytes[at + 1] = value & 0xff;
      at += 2;
    }
    return true;
  };
  const tailStart = 16 - (tail.length * 2 + (dotted && tail.length > 0 ? 2 : 0));
  if (!put(head, 0)) return undefined;
  if (!put(tail, halves.length === 1 ? head.length * 2 : tailStart)) return undefined;
  return bytes;
}

/** The 16 bytes of an IPv4 or IPv6 address (a zone id dropped), or undefined. */
export function ipBytes(text: string): Bytes | undefined {
  if (text.includes(':')) return ipv6Bytes(text.replace(ZONE, ''));
  const bytes = new Uint8Array(16);
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  return ipv4Bytes(text, bytes, 12) ? bytes : undefined;
}

/** A range: the first `bits` bits of `base`. */
interface Range {
  readonly base: Bytes;
  readonly bits: number;
}

function inRange(address: Bytes, { base, bits }: Range): boolean {
  let i = 0;
  for (; bits - i * 8 >= 8; i++) if (address[i] !== base[i]) return false;
  const rest = bits - i * 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((address[i] as number) & mask) === ((base[i] as number) & mask);
}

/** The names Express's `trust proxy` setting (proxy-addr) accepts for address ranges. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** The prefix length a netmask written as an address spells (`255.255.0.0`: 16), or NaN. */
function maskBits(mask: Bytes, ipv4: boolean): number {
  let bits = 0;
  let ended = false;
  for (let i = ipv4 ? 12 : 0; i < 16; i++) {
    for (let bit = 7; bit >= 0; bit--) {
      const set = (((mask[i] as number) >> bit) & 1) === 1;
      if (set && ended) return Number.NaN;
      if (set) bits += 1;
      else ended = true;
    }
  }
  return bits;
}

/** One entry of a trust list: an address, `address/prefix` or `address/netmask`. */
function parseRange(entry: string): Range {
  const slash = entry.indexOf('/');
  const text = slash === -1 ? entry : entry.slice(0, slash);
  const base = ipBytes(text);
  if (base === undefined || text.includes('%')) {
    throw new TypeError(`option trustProxy: ${JSON.stringify(entry)} is not an IP address`);
  }
  const ipv4 = !text.includes(':');
  const width = ipv4 ? 32 : 128;
  if (slash === -1) return { base, bits: 128 };
  const suffix = entry.slice(slash + 1);
  let bits = Number.NaN;
  if (/^\d{1,3}$/.test(suffix)) bits = Number(suffix);
  else if (ipv4) {
    const mask = ipBytes(suffix);
    if (mask !== undefined && !suffix.includes(':')) bits = maskBits(mask, true);
  }
  if (!(bits >= 0 && bits <= width)) {
    throw new TypeError(`option trustProxy: ${JSON.stringify(entry)} has an invalid range`);
  }
  // An IPv4 range covers its IPv4-mapped IPv6 addresses (the first 96 bits are ::ffff:).
  return { base, bits: ipv4 ? 96 + bits : bits };
}

/** `trustProxy` resolved: whether the address at `hop` (0: the peer) is a trusted proxy. */
export type TrustFn = (address: string, hop: number) => boolean;

function trustList(entries: readonly unknown[]): TrustFn | undefined {
  const ranges: Range[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'string') {
      throw new TypeError('option trustProxy: a list holds addresses, ranges or names');
    }
    const name = entry.trim();
    const named = Object.hasOwn(NAMED_RANGES, name) ? NAMED_RANGES[name] : undefined;
    for (const range of named ?? [name]) ranges.push(parseRange(range));
  }
  if (ranges.length === 0) return undefined;
  return (address) => {
    const bytes = ipBytes(address);
    return bytes !== undefined && ranges.some((range) => inRange(bytes, range));
  };
}

/**
 * The `trustProxy` option as Express reads its `trust proxy` setting: `true` trusts every hop,
 * a number the first that many hops, a string (comma-separated) or a list the addresses,
 * ranges and names given, a function decides. Off (undefined) for `false`, `0`, `null`, `[]`.
 */
export function resolveTrust(value: unknown): TrustFn | undefined {
  if (isOff(value)) return undefined;
  if (value === true) return () => true;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) {
      throw new TypeError('option trustProxy: a hop count must be a non-negative integer');
    }
    return value === 0 ? undefined : (_address, hop) => hop < value;
  }
  if (typeof value === 'string') return trustList(value.split(','));
  if (Array.isArray(value)) return trustList(value);
  if (typeof value === 'function') return value as TrustFn;
  throw new TypeError(
    'option trustProxy must be a boolean, a hop count, addresses or ranges, or a function',
  );
}

/** `1*5DIGIT`, the port after an address in either header. */
const PORT = /^\d{1,5}$/;

/**
 * An address with an optional port, as X-Forwarded-For entries and `Forwarded`'s node
 * (RFC 7239 section 6) write it: `192.0.2.1`, `192.0.2.1:8080`, `[2001:db8::1]`,
 * `[2001:db8::1]:8080`, or (X-Forwarded-For only) a bare `2001:db8::1`. The address without
 * its port, or undefined. IPv6 is read by ipv6Bytes, which takes no zone (`fe80::1%eth0`): a
 * zone names an interface of the host that wrote it, and after its `%` comes whatever text a
 * client likes. Only the socket's own address may carry one (ipBytes drops it).
 */
function hostOf(node: string, bareIpv6: boolean): string | undefined {
  if (node.startsWith('[')) {
    const close = node.indexOf(']');
    if (close === -1) return undefined;
    const rest = node.slice(close + 1);
    if (rest !== '' && !(rest.startsWith(':') && PORT.test(rest.slice(1)))) return undefined;
    const host = node.slice(1, close);
    return ipv6Bytes(host) !== undefined ? host : undefined;
  }
  const colon = node.indexOf(':');
  if (colon !== -1 && node.indexOf(':', colon + 1) === -1) {
    const host = node.slice(0, colon);
    return PORT.test(node.slice(colon + 1)) && IPV4.test(host) ? host : undefined;
  }
  if (colon !== -1) return bareIpv6 && ipv6Bytes(node) !== undefined ? node : undefined;
  return IPV4.test(node) ? node : undefined;
}

/**
 * `text` from `from` to `to` without the OWS around it: spaces and tabs (RFC 9110, section
 * 5.6.3), nothing else. A no-break space or any other character is part of the entry, which
 * is then no address: malformed, it ends the walk.
 */
function listElement(text: string, from: number, to: number): string {
  let start = from;
  let stop = to;
  while (start < stop && isOws(text.charCodeAt(start))) start++;
  while (stop > start && isOws(text.charCodeAt(stop - 1))) stop--;
  return text.slice(start, stop);
}

function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** RFC 9110's token characters. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The address in the `for` parameter of one `Forwarded` element (RFC 7239 section 4):
 *   forwarded-element = [ forwarded-pair ] *( ";" [ forwarded-pair ] )
 *   forwarded-pair    = token "=" value
 *   value             = token / quoted-string
 * A malformed element, a repeated parameter, no `for`, or a node that is not an address
 * (`unknown`, `_obfuscated`) gives undefined.
 */
function forwardedFor(element: string): string | undefined {
  let found: string | undefined;
  const seen = new Set<string>();
  for (const raw of element.split(';')) {
    const pair = listElement(raw, 0, raw.length);
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    if (equals === -1) return undefined;
    const name = pair.slice(0, equals).toLowerCase();
    let value = pair.slice(equals + 1);
    if (!TOKEN.test(name) || seen.has(name)) return undefined;
    seen.add(name);
    if (value.startsWith('"')) {
      // quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE; quoted-pair = "\" char
      if (value.length < 2 || !value.endsWith('"')) return undefined;
      const inner = value.slice(1, -1);
      if (/(^|[^\\])"/.test(inner) || /[\x00-\x08\x0a-\x1f\x7f]/.test(inner)) return undefined;
      value = inner.replace(/\\(.)/g, '$1');
    } else if (!TOKEN.test(value)) {
      return undefined;
    }
    if (name === 'for') found = value;
  }
  return found === undefined ? undefined : hostOf(found, false);
}

/** The forwarding header read with `trustProxy`. */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded';

/** The `forwardedHeader` option: X-Forwarded-For unless `forwarded` is named. */
export function resolveProxyHeader(value: unknown, trusting: boolean): ProxyHeader {
  if (isUnset(value)) return 'x-forwarded-for';
  if (typeof value !== 'string') {
    throw new TypeError('option forwardedHeader must be "x-forwarded-for" or "forwarded"');
  }
  const name = value.toLowerCase();
  if (name !== 'x-forwarded-for' && name !== 'forwarded') {
    throw new TypeError('option forwardedHeader must be "x-forwarded-for" or "forwarded"');
  }
  // Naming a header with nothing trusted would read nothing: a misconfiguration, said now.
  if (!trusting) throw new TypeError('option forwardedHeader needs the trustProxy option');
  return name;
}

/** How a door finds the client's address behind its proxies. */
export interface ProxyResolver {
  /** The request header to read (lower-case). */
  readonly header: ProxyHeader;
  /** The client's address, from the peer's and the header's value (absent: undefined). */
  readonly resolve: (peer: string | undefined, header: string | undefined) => string | undefined;
}

/** `trustProxy` and `forwardedHeader` resolved, or undefined when nothing is trusted. */
export function proxyResolver(
  trustOption: unknown,
  headerOption: unknown,
  failed: (err: unknown) => void,
): ProxyResolver | undefined {
  const trust = resolveTrust(trustOption);
  const header = resolveProxyHeader(headerOption, trust !== undefined);
  if (trust === undefined) return undefined;
  const isForwarded = header === 'forwarded';
  const trusts = (address: string, hop: number): boolean => {
    try {
      return Boolean(trust(address, hop));
    } catch (err) {
      // The application's function threw: that hop is not trusted, the request goes on.
      failed(err);
      return false;
    }
  };
  const resolve = (peer: string | undefined, value: string | undefined) => {
    if (peer === undefined || value === undefined) return peer;
    let address = peer;
    // Entries are read from the right, one comma at a time: commas never appear inside an
    // address, and a quote a client left open cannot swallow what the proxies appended.
    // `end` is where the entry in hand ends; the comma before it is found at `end - 1` or
    // further left, so `end` falls at every step and the walk ends whatever the commas (a
    // search from `end - 1` with `end` at 0 would find a leading comma again and again).
    let end = value.length;
    let hop = 0;
    while (end > 0) {
      const comma = value.lastIndexOf(',', end - 1);
      const entry = listElement(value, comma + 1, end);
      end = comma;
      // An empty entry is no entry: RFC 9110's list rule (section 5.6.1) has recipients
      // ignore empty elements (`,, <client>` is what a proxy appends to a client's `,`), and
      // Express skips them too. Not a hop, so a hop count is not spent on one.
      if (entry === '') continue;
      if (!trusts(address, hop)) break;
      const next = isForwarded ? forwardedFor(entry) : hostOf(entry, true);
      if (next === undefined) break;
      address = next;
      hop += 1;
    }
    return address;
  };
  return { header, resolve };
}
