import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import express from 'express';
import {
  errorKinds,
  type ProblemDocument,
  parsers,
  problemHandler,
  toResponse,
} from '../../src/index.js';
import { serve } from '../helpers/index.js';

// toResponse(err) and problemHandler(): a parser error as an RFC 9457 problem document
// (application/problem+json), the same from a Web handler and from Express.

const JSON_TYPE = { 'content-type': 'application/json' };

function post(body: string, headers: Record<string, string> = JSON_TYPE): Request {
  return new Request('http://127.0.0.1/', { method: 'POST', body, headers });
}

async function errorOf(reading: Promise<unknown>): Promise<unknown> {
  try {
    await reading;
  } catch (err) {
    return err;
  }
  throw new Error('the read resolved');
}

const schema = {
  '~standard': {
    version: 1 as const,
    vendor: 'test',
    validate: () => ({
      issues: [{ message: 'secret value "hunter2" is wrong', path: ['user', 0, 'pw'] }],
    }),
  },
};

describe('toResponse', () => {
  test('a parser error is a Response with its status, application/problem+json and the problem', async () => {
    const response = toResponse(
      await errorOf(parsers.json.read(post('x'.repeat(200)), { limit: 100 })),
    );
    assert.equal(response.status, 413);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    assert.deepEqual(await response.json(), {
      type: 'about:blank',
      title: 'Payload Too Large',
      status: 413,
      detail: 'request entity too large',
      code: 'entity.too.large',
    });
  });

  test('a 422 lists its issues with their paths, in the bounded form the error holds', async () => {
    const response = toResponse(await errorOf(parsers.json.read(post('{"a":1}'), { schema })));
    assert.equal(response.status, 422);
    const problem = (await response.json()) as ProblemDocument;
    assert.equal(problem.code, 'entity.validation.failed');
    assert.deepEqual(problem.issues, [{ path: ['user', 0, 'pw'], message: 'invalid value' }]);
  });

  test('a JSON parse failure says nothing of the body (the SyntaxError quotes it)', async () => {
    const err = await errorOf(parsers.json.read(post('{"password":"hunter2"')));
    assert.match((err as Error).message, /JSON/);
    const text = await toResponse(err).text();
    assert.doesNotMatch(text, /hunter2|password/);
    assert.equal(JSON.parse(text).detail, 'the body could not be parsed');
  });

  test('a verify that throws a message quoting the body is answered without it', async () => {
    const verify = () => {
      throw new Error('bad body {"token":"s3cr3t"}');
    };
    const text = await toResponse(
      await errorOf(parsers.json.read(post('{"token":"s3cr3t"}'), { verify })),
    ).text();
    assert.doesNotMatch(text, /s3cr3t/);
    assert.equal(JSON.parse(text).code, 'entity.verify.failed');
  });

  test('a detail quoting a long value the client sent is cut to 200 characters', async () => {
    const charset = 'y'.repeat(20_000);
    const err = await errorOf(
      parsers.json.read(post('{}', { 'content-type': `application/json; charset="${charset}"` })),
    );
    const problem = (await toResponse(err).json()) as ProblemDocument;
    assert.equal(problem.code, 'charset.unsupported');
    assert.equal(problem.detail?.length, 200);
    assert.ok(problem.detail?.endsWith('…'));
  });

  test('a 5xx of httpware keeps its code but gives no detail, and no stack anywhere', async () => {
    const request = post('{}');
    await request.text();
    const response = toResponse(await errorOf(parsers.json.read(request)));
    assert.equal(response.status, 500);
    const problem = (await response.json()) as ProblemDocument;
    assert.deepEqual(problem, {
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      code: 'stream.not.readable',
    });
  });

  test('anything that is not an httpware error is a bare 500', async () => {
    for (const thrown of [new Error('db password is hunter2'), { status: 404 }, 'text', null]) {
      const response = toResponse(thrown);
      assert.equal(response.status, 500);
      assert.deepEqual(await response.json(), {
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
      });
    }
  });

  test('every kind of the registry gets its own status and code', async () => {
    const { HttpwareError } = await import('../../src/errors.js');
    for (const [type, kind] of Object.entries(errorKinds)) {
      const err = new HttpwareError(type as never, { issues: [] } as never);
      const problem = (await toResponse(err).json()) as ProblemDocument;
      assert.equal(problem.status, kind.status, type);
      assert.equal(problem.code, type);
    }
  });
});

describe('problemHandler', () => {
  test('answers a parser error in Express with the same status, headers and document as toResponse', async () => {
    const app = express();
    app.post('/', parsers.json({ limit: 100 }), (_req, res) => {
      res.end('parsed');
    });
    app.use(problemHandler());
    const server = await serve(app);
    try {
      const reply = await fetch(`${server.origin}/`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: 'x'.repeat(200),
      });
      assert.equal(reply.status, 413);
      assert.equal(reply.headers.get('content-type'), 'application/problem+json');
      const expected = toResponse(
        await errorOf(parsers.json.read(post('x'.repeat(200)), { limit: 100 })),
      );
      assert.deepEqual(await reply.json(), await expected.json());
    } finally {
      await server.close();
    }
  });

  test('passes the error on when the response has already begun', async () => {
    const app = express();
    let passedOn: unknown;
    app.get('/', (_req, res, next) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('begun');
      next(new Error('late'));
    });
    app.use(problemHandler());
    app.use(
      (err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
        passedOn = err;
        res.end();
      },
    );
    const server = await serve(app);
    try {
      const reply = await fetch(`${server.origin}/`);
      assert.equal(await reply.text(), 'begun');
      assert.equal((passedOn as Error).message, 'late');
    } finally {
      await server.close();
    }
  });
});
