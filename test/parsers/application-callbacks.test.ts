import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StandardSchemaV1 } from '../../src/index.js';
import {
  activeResources,
  assertHttpError,
  assertResourcesSettle,
  hostileSetup,
  listenerProbe,
} from '../helpers/hostile.js';
import { type Middleware, send, startServer } from '../helpers/index.js';

const hostile = hostileSetup();

// The application's own code in the pipeline, broken or slow: a schema that throws or never
// settles, an async verify that never settles, a validator that reports a flood of issues, a
// JSON `parse` that returns a poisoned object, `read` on a body already read. Each must end in
// a documented error, `next` exactly once, no uncaught exception, and nothing left behind:
// no timer, listener or socket outlives the request, and the server goes on serving.

/** One megabyte, shared by every issue of the flood below. */
const MEGABYTE = 'x'.repeat(1 << 20);

const schemaOf = (validate: (value: unknown) => unknown) =>
  ({ '~standard': { version: 1, vendor: 'test', validate } }) as StandardSchemaV1;

/** `target` with a getter `name` that throws. */
function throwingGetter<T extends object>(target: T, name: PropertyKey): T {
  return Object.defineProperty(target, name, {
    get() {
      throw new Error(`the ${String(name)} getter threw`);
    },
  });
}

/** A key whose conversion to a string throws, by `toString` or `Symbol.toPrimitive`. */
const unprintable: readonly object[] = [
  {
    toString() {
      throw new Error('toString threw');
    },
  },
  {
    [Symbol.toPrimitive]() {
      throw new Error('toPrimitive threw');
    },
  },
];

/**
 * A schema's result (or an issue in it) whose reading throws: each is the schema's fault, a
 * 500 entity.validation.threw, never an exception out of the request or a request left hanging.
 */
function brokenResults(): Case[] {
  const results: Record<string, () => unknown> = {
    'a result whose then getter throws': () => throwingGetter({}, 'then'),
    'a result whose issues getter throws': () => throwingGetter({}, 'issues'),
    'a result whose value getter throws': () => throwingGetter({}, 'value'),
    'an issue whose path getter throws': () => ({ issues: [throwingGetter({}, 'path')] }),
    'a path segment whose key getter throws': () => ({
      issues: [{ message: 'm', path: [throwingGetter({}, 'key')] }],
    }),
    'a path key whose toString throws': () => ({
      issues: [{ message: 'm', path: [{ key: unprintable[0] }] }],
    }),
    'a path key whose Symbol.toPrimitive throws': () => ({
      issues: [{ message: 'm', path: [{ key: unprintable[1] }] }],
    }),
  };
  const cases: Case[] = Object.entries(results).map(([name, result]) => ({
    name: `a schema returning ${name}`,
    middleware: () => hostile.subject.parsers.json({ schema: schemaOf(result) }),
    body: '{}',
    status: 500,
    type: 'entity.validation.threw',
  }));
  cases.push({
    name: "a schema returning an issue whose message getter throws (issueMessages: 'validator')",
    middleware: () =>
      hostile.subject.parsers.json({
        schema: schemaOf(() => ({ issues: [throwingGetter({ path: [] }, 'message')] })),
        issueMessages: 'validator',
      }),
    body: '{}',
    status: 500,
    type: 'entity.validation.threw',
  });
  return cases;
}

interface Case {
  readonly name: string;
  readonly middleware: () => Middleware | readonly Middleware[];
  readonly body: string;
  readonly status: number;
  readonly type: string;
  /** How many issues a 422 keeps. */
  readonly issues?: number;
}

const cases: readonly Case[] = [
  {
    name: 'a schema that throws',
    middleware: () =>
      hostile.subject.parsers.json({
        schema: schemaOf(() => {
          throw new RangeError('Maximum call stack size exceeded');
        }),
      }),
    body: '{}',
    status: 500,
    type: 'entity.validation.threw',
  },
  ...brokenResults(),
  {
    name: 'a schema whose issue path never ends (a Proxy of 2**32 - 1 keys)',
    middleware: () =>
      hostile.subject.parsers.json({
        schema: schemaOf(() => ({
          issues: [
            {
              message: 'm',
              path: new Proxy([], { get: (_t, p) => (p === 'length' ? 2 ** 32 - 1 : 'k') }),
            },
          ],
        })),
      }),
    body: '{}',
    status: 422,
    type: 'entity.validation.failed',
    issues: 1,
  },
  {
    name: 'a verify that returns a thenable whose then getter throws',
    middleware: () =>
      hostile.subject.parsers.json({
        verify: () => throwingGetter({}, 'then') as never,
      }),
    body: '{}',
    status: 403,
    type: 'entity.verify.failed',
  },
  {
    name: 'a verify that throws an error whose status getter throws',
    middleware: () =>
      hostile.subject.parsers.json({
        verify: () => {
          throw throwingGetter(new Error('refused'), 'status');
        },
      }),
    body: '{}',
    status: 403,
    type: 'entity.verify.failed',
  },
  {
    name: 'a schema that never settles',
    middleware: () =>
      hostile.subject.parsers.json({
        schema: schemaOf(() => new Promise(() => {})),
        schemaTimeout: 50,
      }),
    body: '{}',
    status: 500,
    type: 'entity.validation.timeout',
  },
  {
    name: 'an async verify that never settles',
    middleware: () =>
      hostile.subject.parsers.json({ verify: () => new Promise(() => {}), verifyTimeout: 50 }),
    body: '{}',
    status: 500,
    type: 'entity.verify.timeout',
  },
  {
    name: 'a validator that reports 200,000 issues of a megabyte each',
    middleware: () =>
      hostile.subject.parsers.json({
        schema: schemaOf(() => ({
          issues: Array.from({ length: 200_000 }, (_, i) => ({ message: MEGABYTE, path: [i] })),
        })),
      }),
    body: '{}',
    status: 422,
    type: 'entity.validation.failed',
    issues: 100,
  },
  {
    name: 'a JSON parse that returns a poisoned object',
    middleware: () =>
      hostile.subject.parsers.json({ parse: () => JSON.parse('{"a":{"__proto__":{"admin":1}}}') }),
    body: '{}',
    status: 400,
    type: 'entity.prototype.forbidden',
  },
  {
    name: 'read on a body a parser already read',
    middleware: () => [
      hostile.subject.parsers.json(),
      (req, _res, next) => {
        hostile.subject.parsers.json.read(req).then(() => next(), next);
      },
    ],
    body: '{"a":1}',
    status: 500,
    type: 'stream.not.readable',
  },
];

describe('broken or slow application code in the pipeline', () => {
  for (const c of cases) {
    test(`${c.name}: ${c.status} ${c.type}, next once, nothing left behind, answered again`, async () => {
      const probe = listenerProbe();
      const middleware = c.middleware();
      const server = await startServer({
        middleware: [probe.before, ...(Array.isArray(middleware) ? middleware : [middleware])],
      });
      try {
        const baseline = activeResources();
        const started = Date.now();
        const reply = await send(server, {
          headers: { 'content-type': 'application/json', connection: 'close' },
          body: c.body,
        });
        const outcome = await server.nextOutcome();
        assert.equal(reply.status, c.status, reply.text);
        assert.ok(reply.text.length < 64 * 1024, `an answer of ${reply.text.length} characters`);
        const err = assertHttpError(outcome.error, hostile.documented, {
          status: c.status,
          type: c.type,
        });
        assert.equal(outcome.nextCalls, 1);
        assert.ok(Date.now() - started < 2000, 'answered within the bounds');
        if (c.issues !== undefined) {
          assert.equal((err as unknown as { issues: unknown[] }).issues.length, c.issues);
        }
        await assertResourcesSettle(baseline);
        // The probe counts a request's listeners in the turn after its response finished.
        await new Promise((resolve) => setTimeout(resolve, 10));
        assert.equal(probe.finished, 1);
        assert.deepEqual(probe.leaks, [], 'listeners left behind');
        assert.deepEqual(hostile.uncaught.take(), [], 'no uncaught exception');
        // Still serving: the same request again gets the same answer.
        const again = await send(server, {
          headers: { 'content-type': 'application/json' },
          body: c.body,
        });
        assert.equal(again.status, c.status);
        assert.equal((await server.nextOutcome()).nextCalls, 1);
      } finally {
        await server.close();
      }
    });
  }
});
