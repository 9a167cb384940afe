// A property of the `trustProxy` walk through real servers: for any X-Forwarded-For or
// `Forwarded` a client (or a chain of proxies) sends, made of addresses, malformed entries and
// empty or blank entries at every position (leading, trailing and repeated commas, empty
// header lines, whole headers empty), the request is answered and the address logged is the
// one docs/security.md describes: empty entries skipped, not hops; from the peer, each trusted
// hop steps to the next entry from the right; a malformed entry ends the walk at the last
// address reached. So it is always an IP address: the peer's or one a header gave.
// The servers run in a child process (fixtures/forwarded-walk.ts): a walk that never ends
// fails the property after 3 s instead of hanging the run.
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { TrustProxy } from '../../src/logger/types.js';
import { startWalkServers, type WalkServer, type WalkServers } from '../helpers/forwarded-walk.js';
import { fc } from '../helpers/properties.js';

const PEER = '127.0.0.1';

type Header = 'x-forwarded-for' | 'forwarded';

/** An entry's text and the address it gives, `null` when it is malformed. */
type Entry = readonly [text: string, address: string | null];

/** Entries as proxies write them, and what each gives; 127/8 and ::1 are loopback. */
const entries: Record<Header, readonly Entry[]> = {
  'x-forwarded-for': [
    ['203.0.113.9', '203.0.113.9'],
    ['127.0.0.2', '127.0.0.2'],
    ['127.0.0.3:8080', '127.0.0.3'],
    ['2001:db8::1', '2001:db8::1'],
    ['[2001:db8::2]:4711', '2001:db8::2'],
    ['::1', '::1'],
    ['unknown', null],
    ['127.1', null],
    ['fe80::1%ATTACKER', null],
    ['\u00a0', null],
  ],
  forwarded: [
    ['for=203.0.113.9', '203.0.113.9'],
    ['for=127.0.0.2;proto=https', '127.0.0.2'],
    ['for="127.0.0.3:80"', '127.0.0.3'],
    ['for="[2001:db8::2]:4711"', '2001:db8::2'],
    ['for="[::1]"', '::1'],
    ['for=_hidden', null],
    ['proto=https', null],
    ['for="[fe80::1%25eth0]"', null],
    ['for=2001:db8::1', null],
  ],
};

const trusts: readonly TrustProxy[] = [1, 2, true, 'loopback'];

/** Whether `trust` trusts `address` at `hop`, as docs/logger.md describes each form. */
function trusted(trust: TrustProxy, address: string, hop: number): boolean {
  if (trust === true) return true;
  if (typeof trust === 'number') return hop < trust;
  return address.startsWith('127.') || address === '::1';
}

/** The address the docs promise for the header value the server sees (lines joined). */
function expectedAddress(header: Header, trust: TrustProxy, value: string): string {
  const known = new Map(entries[header]);
  const list = value
    .split(',')
    .map((entry) => entry.replace(/^[ \t]+|[ \t]+$/g, ''))
    .filter((entry) => entry !== '');
  let address = PEER;
  let hop = 0;
  for (let i = list.length - 1; i >= 0 && trusted(trust, address, hop); i--) {
    const next = known.get(list[i] as string);
    assert.notEqual(next, undefined, `the test made an entry it does not know: ${list[i]}`);
    if (next === null) break;
    address = next as string;
    hop += 1;
  }
  return address;
}

/** Spaces and tabs around an entry, or an entry of nothing else. */
const blank = fc.constantFrom('', ' ', '\t', '  ', ' \t ');

/** An entry with blanks around it, or an empty or blank one (weighted: one in two). */
const entry = (header: Header) =>
  fc.oneof(
    { weight: 1, arbitrary: blank },
    {
      weight: 1,
      arbitrary: fc
        .tuple(blank, fc.constantFrom(...entries[header].map(([text]) => text)), blank)
        .map((parts) => parts.join('')),
    },
  );

/**
 * A header as header lines: entries joined by commas, some commas turned into line breaks (an
 * empty entry at a break is an empty line). Node sends an array as that many lines.
 */
const headerLines = (header: Header) =>
  fc.array(fc.tuple(entry(header), fc.boolean()), { maxLength: 8 }).map((items) => {
    const lines: string[] = [];
    let line: string | undefined;
    for (const [text, breaks] of items) {
      line = line === undefined ? text : `${line},${text}`;
      if (breaks) {
        lines.push(line);
        line = undefined;
      }
    }
    lines.push(line ?? '');
    return lines;
  });

const servers: WalkServer[] = (['x-forwarded-for', 'forwarded'] as const).flatMap((header) =>
  trusts.map((trustProxy) => ({ door: 'node' as const, trustProxy, forwardedHeader: header })),
);

let walk: WalkServers;
before(async () => {
  walk = await startWalkServers(servers);
});
after(() => walk.close());

for (const header of ['x-forwarded-for', 'forwarded'] as const) {
  describe(`the ${header} walk`, () => {
    test('ends on any list, empty entries anywhere, with the documented address', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: trusts.length - 1 }),
          headerLines(header),
          async (which, lines) => {
            const trust = trusts[which] as TrustProxy;
            const index = servers.findIndex(
              (s) => s.forwardedHeader === header && s.trustProxy === trust,
            );
            const sent = lines.length === 1 ? (lines[0] as string) : lines;
            const address = await walk.address(index, { [header]: sent });
            // Node trims each line and joins repeated lines with ", ".
            const seen = lines.map((line) => line.replace(/^[ \t]+|[ \t]+$/g, '')).join(', ');
            assert.equal(address, expectedAddress(header, trust, seen));
            assert.notEqual(isIP(address), 0);
          },
        ),
        // A walk that hangs costs 3 s a run: the property stops within two minutes, failed.
        { numRuns: 300, interruptAfterTimeLimit: 120_000, markInterruptAsFailure: true },
      );
    });
  });
}
