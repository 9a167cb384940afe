// trustProxy: the client's address behind proxies, from forged, odd and malformed forwarding
// headers, through both doors, beside what Express's `req.ip` answers under the same setting.
// Every request comes from 127.0.0.1, the nearest "proxy"; the table says what each header
// gives, and where Express answers otherwise, what it answers and why we differ.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { fetchLogger, logger } from '../../src/logger/index.js';
import type { TrustProxy } from '../../src/logger/types.js';
import { fetchAdapters, serveFetch } from '../helpers/fetch.js';
import {
  captureLines,
  frameworksOver,
  type Middleware,
  send,
  startServer,
} from '../helpers/index.js';
import { loggedServer } from '../helpers/logger.js';
import { captureWarnings } from '../helpers/warnings.js';

const warnings = captureWarnings();

interface Case {
  readonly name: string;
  readonly trust: TrustProxy | undefined;
  readonly headers: Record<string, string | readonly string[]>;
  readonly header?: 'x-forwarded-for' | 'forwarded';
  /** What :remote-addr says. */
  readonly expected: string;
  /** What Express's req.ip says, where it differs (Express reads no `Forwarded`). */
  readonly express?: string;
}

const PEER = '127.0.0.1';
const CLIENT = '203.0.113.9';
const FORGED = '6.6.6.6';

const cases: readonly Case[] = [
  {
    name: 'off: no header believed',
    trust: undefined,
    headers: { 'x-forwarded-for': CLIENT },
    expected: PEER,
  },
  {
    name: 'false: no header believed',
    trust: false,
    headers: { 'x-forwarded-for': CLIENT },
    expected: PEER,
  },
  { name: 'one hop', trust: 1, headers: { 'x-forwarded-for': CLIENT }, expected: CLIENT },
  {
    name: 'one hop, forged left-most entry',
    trust: 1,
    headers: { 'x-forwarded-for': `${FORGED}, ${CLIENT}` },
    expected: CLIENT,
  },
  {
    name: 'two hops',
    trust: 2,
    headers: { 'x-forwarded-for': `${FORGED}, ${CLIENT}, 10.0.0.2` },
    expected: CLIENT,
  },
  {
    name: 'loopback, forged left-most entry',
    trust: 'loopback',
    headers: { 'x-forwarded-for': `${FORGED}, ${CLIENT}` },
    expected: CLIENT,
  },
  {
    name: 'true trusts every hop: the left-most',
    trust: true,
    headers: { 'x-forwarded-for': `${FORGED}, ${CLIENT}` },
    expected: FORGED,
  },
  {
    name: 'an untrusted peer: its own address',
    trust: ['10.0.0.0/8'],
    headers: { 'x-forwarded-for': CLIENT },
    expected: PEER,
  },
  {
    name: 'a list as a string, CIDR',
    trust: '127.0.0.1, 10.0.0.0/8',
    headers: { 'x-forwarded-for': `${FORGED}, ${CLIENT}, 10.1.2.3` },
    expected: CLIENT,
  },
  {
    name: 'a netmask',
    trust: '127.0.0.0/255.0.0.0',
    headers: { 'x-forwarded-for': CLIENT },
    expected: CLIENT,
  },
  {
    name: 'an IPv4-mapped proxy in an IPv4 range',
    trust: 'loopback, 10.0.0.0/8',
    headers: { 'x-forwarded-for': `${CLIENT}, ::ffff:10.0.0.2` },
    expected: CLIENT,
  },
  {
    name: 'a function of address and hop',
    trust: (address, hop) => hop === 0 && address === PEER,
    headers: { 'x-forwarded-for': `${FORGED}, ${CLIENT}` },
    expected: CLIENT,
  },
  {
    name: 'repeated header lines, joined',
    trust: 1,
    headers: { 'x-forwarded-for': [FORGED, CLIENT] },
    expected: CLIENT,
  },
  {
    name: 'IPv6',
    trust: 1,
    headers: { 'x-forwarded-for': '2001:db8::1' },
    expected: '2001:db8::1',
  },
  {
    name: 'IPv6 in brackets, with a port',
    trust: 1,
    headers: { 'x-forwarded-for': '[2001:db8::1]:4711' },
    expected: '2001:db8::1',
    express: '[2001:db8::1]:4711',
  },
  {
    name: 'IPv4 with a port',
    trust: 1,
    headers: { 'x-forwarded-for': `${CLIENT}:5555` },
    expected: CLIENT,
    express: `${CLIENT}:5555`,
  },
  {
    name: 'empty entries are skipped',
    trust: 1,
    headers: { 'x-forwarded-for': `${CLIENT}, ` },
    expected: CLIENT,
  },
  { name: 'an empty header', trust: 1, headers: { 'x-forwarded-for': '' }, expected: PEER },
  {
    name: 'malformed: not an address',
    trust: 1,
    headers: { 'x-forwarded-for': 'not-an-ip' },
    expected: PEER,
    express: 'not-an-ip',
  },
  {
    name: 'malformed: markup',
    trust: true,
    headers: { 'x-forwarded-for': '<script>' },
    expected: PEER,
    express: '<script>',
  },
  {
    name: 'malformed: IPv4 out of range',
    trust: 1,
    headers: { 'x-forwarded-for': '203.0.113.256' },
    expected: PEER,
    express: '203.0.113.256',
  },
  {
    name: 'malformed: IPv6 with two "::"',
    trust: 1,
    headers: { 'x-forwarded-for': '2001::db8::1' },
    expected: PEER,
    express: '2001::db8::1',
  },
  {
    name: 'malformed: an IPv6 zone, client-chosen text after its %',
    trust: 1,
    headers: { 'x-forwarded-for': 'fe80::1%ATTACKER_TEXT' },
    expected: PEER,
    express: 'fe80::1%ATTACKER_TEXT',
  },
  {
    name: 'short IPv4 "127.1" is not loopback',
    trust: 'loopback',
    headers: { 'x-forwarded-for': `${FORGED}, 127.1` },
    expected: PEER,
    express: '127.1',
  },
  {
    name: 'hex IPv4 is not loopback',
    trust: 'loopback',
    headers: { 'x-forwarded-for': `${FORGED}, 0x7f.0.0.1` },
    expected: PEER,
    express: FORGED,
  },
  {
    name: 'a decimal number is not loopback',
    trust: 'loopback',
    headers: { 'x-forwarded-for': `${FORGED}, 2130706433` },
    expected: PEER,
    express: FORGED,
  },
  {
    name: 'X-Forwarded-For mode ignores Forwarded',
    trust: 1,
    headers: { forwarded: `for=${FORGED}` },
    expected: PEER,
  },
  {
    name: 'Forwarded',
    trust: 1,
    header: 'forwarded',
    headers: { forwarded: `for=${FORGED}, for=${CLIENT};proto=https` },
    expected: CLIENT,
    express: PEER,
  },
  {
    name: 'Forwarded, case-insensitive name, quoted IPv6 with a port',
    trust: 1,
    header: 'forwarded',
    headers: { forwarded: 'For="[2001:db8:cafe::17]:4711"' },
    expected: '2001:db8:cafe::17',
    express: PEER,
  },
  {
    name: 'Forwarded, quoted IPv4 with a port',
    trust: 1,
    header: 'forwarded',
    headers: { forwarded: `for="${CLIENT}:80"` },
    expected: CLIENT,
    express: PEER,
  },
  {
    name: 'Forwarded, an obfuscated identifier ends the walk',
    trust: true,
    header: 'forwarded',
    headers: { forwarded: `for=${FORGED}, for=_hidden` },
    expected: PEER,
  },
  {
    name: 'Forwarded, "unknown" ends the walk',
    trust: true,
    header: 'forwarded',
    headers: { forwarded: `for=${FORGED}, for=unknown` },
    expected: PEER,
  },
  {
    name: 'Forwarded, an element without for',
    trust: 1,
    header: 'forwarded',
    headers: { forwarded: 'proto=https;by=10.0.0.1' },
    expected: PEER,
  },
  {
    name: 'Forwarded, unquoted IPv6 is malformed',
    trust: 1,
    header: 'forwarded',
    headers: { forwarded: 'for=2001:db8::1' },
    expected: PEER,
  },
  {
    name: 'Forwarded, unquoted port is malformed',
    trust: 1,
    header: 'forwarded',
    headers: { forwarded: `for=${CLIENT}:80` },
    expected: PEER,
  },
  {
    name: 'Forwarded, a repeated for is malformed',
    trust: 1,
    header: 'forwarded',
    headers: { forwarded: `for=${FORGED};for=${CLIENT}` },
    expected: PEER,
  },
  {
    name: 'Forwarded, a quote the client left open',
    trust: 1,
    header: 'forwarded',
    headers: { forwarded: `for="${FORGED}, for=${CLIENT}` },
    expected: CLIENT,
    express: PEER,
  },
  {
    name: 'Forwarded mode ignores X-Forwarded-For',
    trust: 1,
    header: 'forwarded',
    headers: { 'x-forwarded-for': FORGED },
    expected: PEER,
    express: FORGED,
  },
  {
    name: 'Forwarded mode ignores X-Forwarded-For, even in Forwarded syntax',
    trust: 1,
    header: 'forwarded',
    headers: { 'x-forwarded-for': `for=${FORGED}` },
    expected: PEER,
    express: `for=${FORGED}`,
  },
];

function options(c: Case) {
  return {
    ...(c.trust === undefined ? {} : { trustProxy: c.trust }),
    ...(c.header === undefined ? {} : { forwardedHeader: c.header }),
  };
}

describe('trustProxy on node:http: the table', () => {
  for (const c of cases) {
    it(`${c.name}: ${c.expected}`, async () => {
      const server = await loggedServer((stream) =>
        logger(':remote-addr', { stream, ...options(c) }),
      );
      try {
        await send(server, { headers: c.headers });
        assert.deepEqual(await server.capture.waitFor(1), [c.expected]);
      } finally {
        await server.close();
      }
    });
  }
});

/** Express's `req.ip` with its `trust proxy` setting, as the response body. */
const expressIp =
  (trust: TrustProxy | undefined): Middleware =>
  (req, _res, next) => {
    (req as unknown as { app: { set(name: string, value: unknown): void } }).app.set(
      'trust proxy',
      trust ?? false,
    );
    next();
  };

for (const framework of ['express4', 'express5'] as const) {
  describe(`trustProxy: the table against ${framework}'s req.ip`, () => {
    for (const c of cases) {
      const answer = c.express ?? c.expected;
      it(`${c.name}: Express says ${answer}`, async () => {
        const server = await startServer({
          framework,
          middleware: [expressIp(c.trust)],
          handler: (req, res) => res.end((req as { ip?: string }).ip),
        });
        try {
          const reply = await send(server, { headers: c.headers });
          assert.equal(reply.text, answer);
        } finally {
          await server.close();
        }
      });
    }
  });
}

describe('trustProxy on the fetch door: the table', () => {
  for (const adapter of fetchAdapters) {
    for (const c of cases) {
      it(`${adapter}, ${c.name}: ${c.expected}`, async () => {
        const capture = captureLines();
        const log = fetchLogger(':remote-addr', { stream: capture.stream, ...options(c) });
        const server = await serveFetch(
          log(() => new Response('ok')),
          adapter,
        );
        try {
          await send(server, { headers: c.headers });
          assert.deepEqual(await capture.waitFor(1), [c.expected]);
        } finally {
          await server.close();
        }
      });
    }
  }
});

const spoofed = { 'x-forwarded-for': `${FORGED}, ${CLIENT}` };

for (const transport of ['http', 'h2'] as const) {
  for (const framework of frameworksOver(transport)) {
    describe(`trustProxy in ${framework} over ${transport}`, () => {
      // Express's req.ip (its own `trust proxy`, off here) wins over the option.
      const expected = framework.startsWith('express') ? PEER : CLIENT;
      it(`gives ${expected} for a forged left-most entry and one trusted hop`, async () => {
        const server = await loggedServer(
          (stream) => logger(':remote-addr', { stream, trustProxy: 1 }),
          { framework, transport },
        );
        try {
          await send(server, { headers: spoofed });
          assert.deepEqual(await server.capture.waitFor(1), [expected]);
        } finally {
          await server.close();
        }
      });

      it('gives the json and ecs client address', async () => {
        const json = captureLines();
        const ecs = captureLines();
        const server = await startServer({
          framework,
          transport,
          middleware: [
            logger('json', { stream: json.stream, trustProxy: 'loopback' }),
            logger('ecs', { stream: ecs.stream, trustProxy: 'loopback' }),
          ],
          handler: (_req, res) => res.end('ok'),
        });
        try {
          await send(server, { headers: spoofed });
          const [jsonLine] = await json.waitFor(1);
          const [ecsLine] = await ecs.waitFor(1);
          const record = JSON.parse(ecsLine ?? '');
          assert.equal(JSON.parse(jsonLine ?? '')['client.address'], expected);
          assert.equal(record['client.ip'], expected);
        } finally {
          await server.close();
        }
      });
    });
  }
}

describe('trustProxy in OpenTelemetry records', () => {
  it("gives the record's client.address", async () => {
    const exporter = new InMemoryLogRecordExporter();
    const loggerProvider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    const server = await loggedServer((stream) =>
      logger('json', { stream, otel: { loggerProvider }, trustProxy: 1 }),
    );
    try {
      await send(server, { headers: spoofed });
      await server.capture.waitFor(1);
      const [record] = exporter.getFinishedLogRecords();
      assert.equal(record?.attributes['client.address'], CLIENT);
    } finally {
      await server.close();
    }
  });
});

describe('trustProxy on the fetch door', () => {
  /** The `:remote-addr` of a spoofed request when the runtime's address is `peer`. */
  async function addressBehind(peer: string, trustProxy: TrustProxy): Promise<string[]> {
    const capture = captureLines();
    const log = fetchLogger(':remote-addr', {
      stream: capture.stream,
      remoteAddress: () => peer,
      trustProxy,
    });
    const server = await serveFetch(log(() => new Response('ok')));
    try {
      await send(server, { headers: spoofed });
      return await capture.waitFor(1);
    } finally {
      await server.close();
    }
  }

  it('applies on top of the remoteAddress option', async () => {
    assert.deepEqual(await addressBehind('10.0.0.7', '10.0.0.0/8'), [CLIENT]);
  });

  it("reads the peer's own IPv6 zone: a link-local peer is in its range", async () => {
    assert.deepEqual(await addressBehind('fe80::1%eth0', 'linklocal'), [CLIENT]);
  });

  it('gives the json client address', async () => {
    const capture = captureLines();
    const log = fetchLogger('json', { stream: capture.stream, trustProxy: 1 });
    const server = await serveFetch(log(() => new Response('ok')));
    try {
      await send(server, { headers: spoofed });
      const [line] = await capture.waitFor(1);
      assert.equal(JSON.parse(line ?? '')['client.address'], CLIENT);
    } finally {
      await server.close();
    }
  });
});

describe('trustProxy: a function that throws', () => {
  it('trusts no hop and logs the request', async () => {
    const server = await loggedServer((stream) =>
      logger(':remote-addr :status', {
        stream,
        trustProxy: () => {
          throw new Error('boom');
        },
      }),
    );
    try {
      await send(server, { headers: spoofed });
      assert.deepEqual(await server.capture.waitFor(1), [`${PEER} 200`]);
      assert.equal((await warnings.of('HTTPWARE_LOGGER_PROXY')).length, 1);
    } finally {
      await server.close();
    }
  });
});
