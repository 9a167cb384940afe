// The walk of a forwarding header ends on every list a client can send: leading, trailing and
// repeated commas (behind nginx, a client's `X-Forwarded-For: ,` arrives as `,, <client>`),
// empty and blank headers, several header lines joined by the server, in X-Forwarded-For and
// in `Forwarded`, through every door that takes `trustProxy`. An empty entry is no entry (RFC
// 9110's list rule): skipped, it neither counts as a hop nor ends the walk. And an IPv6 zone
// (`%eth0`) comes only with the socket's own address: an entry with one is malformed.
// The servers run in a child process (fixtures/forwarded-walk.ts): a walk that never ends
// stops that process, and each request then fails here after 3 s instead of hanging the run.
// The whole table runs on node:http and on the fetch door; the other doors share their walk
// and get the rows that hung before it was fixed, so a regression costs minutes, not more.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fetchAdapters } from '../helpers/fetch.js';
import {
  startWalkServers,
  type WalkDoor,
  type WalkServer,
  type WalkServers,
} from '../helpers/forwarded-walk.js';

const PEER = '127.0.0.1';
const CLIENT = '203.0.113.9';
const FORGED = '6.6.6.6';

const doors: readonly WalkDoor[] = [
  'node',
  'node-h2c',
  'koa',
  'fastify',
  ...fetchAdapters.map((adapter) => `fetch-${adapter}` as const),
];

/** The loggers' settings, each served once per door. */
const settings = {
  oneHop: { trustProxy: 1 },
  everyHop: { trustProxy: true },
  untrustedPeer: { trustProxy: ['10.0.0.0/8'] },
  forwardedOneHop: { trustProxy: 1, forwardedHeader: 'forwarded' },
  forwardedEveryHop: { trustProxy: true, forwardedHeader: 'forwarded' },
} as const satisfies Record<string, Omit<WalkServer, 'door'>>;

type Setting = keyof typeof settings;

interface Case {
  readonly name: string;
  readonly setting: Setting;
  /** An array is sent as that many header lines. */
  readonly value: string | readonly string[];
  readonly expected: string;
  /** Run through every door, not only node:http and the fetch door (@hono/node-server). */
  readonly everyDoor?: true;
}

const cases: readonly Case[] = [
  { name: 'a lone comma', setting: 'oneHop', value: ',', expected: PEER, everyDoor: true },
  { name: 'a lone comma, peer not trusted', setting: 'untrustedPeer', value: ',', expected: PEER },
  { name: 'only commas and blanks', setting: 'everyHop', value: ' ,\t, ,,', expected: PEER },
  {
    name: "nginx's append to a client's lone comma",
    setting: 'oneHop',
    value: `,, ${CLIENT}`,
    expected: CLIENT,
    everyDoor: true,
  },
  { name: 'a leading comma', setting: 'everyHop', value: `, ${CLIENT}`, expected: CLIENT },
  { name: 'a trailing comma', setting: 'oneHop', value: `${CLIENT},`, expected: CLIENT },
  {
    name: 'repeated commas are no hops',
    setting: 'oneHop',
    value: `${FORGED}, ${CLIENT},, ,\t,`,
    expected: CLIENT,
  },
  {
    name: 'repeated commas do not end the walk',
    setting: 'everyHop',
    value: `,,${FORGED},, ,\t, ${CLIENT},`,
    expected: FORGED,
  },
  { name: 'an empty header', setting: 'everyHop', value: '', expected: PEER },
  { name: 'a blank header', setting: 'everyHop', value: ' \t ', expected: PEER },
  {
    name: 'an empty line, then one',
    setting: 'oneHop',
    value: ['', CLIENT],
    expected: CLIENT,
    everyDoor: true,
  },
  { name: 'a line, then an empty one', setting: 'oneHop', value: [CLIENT, ''], expected: CLIENT },
  {
    name: 'lines of commas around an address',
    setting: 'everyHop',
    value: [',', `${FORGED},`, ',', ''],
    expected: FORGED,
  },
  {
    name: 'a no-break space is no blank: malformed, it ends the walk',
    setting: 'everyHop',
    value: `${FORGED}, \u00a0, ${CLIENT}`,
    expected: CLIENT,
  },
  {
    name: 'an IPv6 zone is malformed',
    setting: 'oneHop',
    value: 'fe80::1%ATTACKER_TEXT',
    expected: PEER,
    everyDoor: true,
  },
  {
    name: 'an IPv6 zone ends the walk',
    setting: 'everyHop',
    value: `${FORGED}, fe80::1%eth0, ${CLIENT}`,
    expected: CLIENT,
  },
  {
    name: 'an IPv6 zone in brackets is malformed',
    setting: 'oneHop',
    value: '[fe80::1%25eth0]:4711',
    expected: PEER,
  },
  {
    name: 'Forwarded: a leading comma',
    setting: 'forwardedOneHop',
    value: `,for=${CLIENT}`,
    expected: CLIENT,
    everyDoor: true,
  },
  { name: 'Forwarded: a lone comma', setting: 'forwardedOneHop', value: ',', expected: PEER },
  {
    name: 'Forwarded: repeated and trailing commas',
    setting: 'forwardedEveryHop',
    value: `,for=${FORGED},, ,for=${CLIENT},`,
    expected: FORGED,
  },
  {
    name: 'Forwarded: an empty line, then one',
    setting: 'forwardedOneHop',
    value: ['', `for=${CLIENT}`],
    expected: CLIENT,
  },
  {
    name: 'Forwarded: an IPv6 zone is malformed',
    setting: 'forwardedOneHop',
    value: 'for="[fe80::1%25eth0]"',
    expected: PEER,
  },
];

const names = Object.keys(settings) as Setting[];
const servers: WalkServer[] = doors.flatMap((door) =>
  names.map((name) => ({ door, ...settings[name] })),
);
const serverOf = (door: WalkDoor, setting: Setting) =>
  doors.indexOf(door) * names.length + names.indexOf(setting);

let walk: WalkServers;
before(async () => {
  walk = await startWalkServers(servers);
});
after(() => walk.close());

for (const door of doors) {
  describe(`the forwarding header's walk ends (${door})`, () => {
    const whole = door === 'node' || door === 'fetch-node-server';
    for (const c of cases.filter((c) => whole || c.everyDoor)) {
      it(`${c.name}: ${c.expected}`, async () => {
        const header = c.setting.startsWith('forwarded') ? 'forwarded' : 'x-forwarded-for';
        const address = await walk.address(serverOf(door, c.setting), { [header]: c.value });
        assert.equal(address, c.expected);
      });
    }
  });
}
