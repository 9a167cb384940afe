// fetchLogger's line for a watched body that is never delivered: a Hono middleware outside the
// logger's that replaces `c.res` (a custom 404 page: what scanner probes get), or a Response
// dropped or read too late. The line is written 1 to 2 s after the Response was handed on
// (docs/web.md), once, timed to that moment; a body being delivered is never cut short by it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchLogger } from '../../src/logger/index.js';
import { PAGE_404, replaced404App } from '../fixtures/web/replaced-404.js';
import { piecesUntil, serveFetch, streamOf } from '../helpers/fetch.js';
import { captureLines, type LineCapture, send } from '../helpers/index.js';
import { runFixture } from '../helpers/logger.js';
import { bundleWorker, startWorkerd } from '../helpers/web-servers.js';

/** The documented bounds of the line of a body never read, after its Response was handed on. */
const AT_LEAST_MS = 1000;
const AT_MOST_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The json lines captured, as [path, status, size, duration]. */
function fieldsOf(capture: LineCapture): Array<[string, number, unknown, number]> {
  return capture.lines.map((line) => {
    const fields = JSON.parse(line) as Record<string, unknown>;
    return [
      fields['url.path'] as string,
      fields['http.response.status_code'] as number,
      fields['http.response.body.size'],
      fields.duration_ms as number,
    ];
  });
}

describe('fetchLogger under Hono, inside a middleware that replaces c.res', () => {
  it('logs the probes whose 404 the outer middleware replaced, once each, within the bound', async () => {
    const capture = captureLines();
    const log = fetchLogger('json', { stream: capture.stream });
    const server = await serveFetch(replaced404App(log, false).fetch);
    try {
      const started = performance.now();
      for (const path of ['/.env', '/wp-login.php']) {
        const reply = await send(server, { path });
        assert.deepEqual([reply.status, reply.text], [404, PAGE_404]);
      }
      const home = await send(server, { path: '/' });
      assert.equal(home.text, 'home');
      // The delivered body's line comes at once; the dropped ones' after the bound.
      assert.deepEqual(
        (await capture.waitFor(1)).map((l) => JSON.parse(l)['url.path']),
        ['/'],
      );
      await capture.waitFor(3, AT_MOST_MS + 1500);
      assert.ok(performance.now() - started >= AT_LEAST_MS);
      await sleep(200);
      const lines = fieldsOf(capture);
      assert.deepEqual(
        lines.map(([path, status, size]) => [path, status, size]),
        [
          ['/', 200, 4],
          ['/.env', 404, undefined],
          ['/wp-login.php', 404, undefined],
        ],
      );
    } finally {
      await server.close();
    }
  });

  it("times a dropped body's line to when its Response was handed on, not to the bound", async () => {
    const capture = captureLines();
    const log = fetchLogger('json', { stream: capture.stream, slow: 1000 });
    const server = await serveFetch(replaced404App(log, false).fetch);
    try {
      await send(server, { path: '/.env' });
      const [line] = await capture.waitFor(1, AT_MOST_MS + 1500);
      const fields = JSON.parse(`${line}`);
      assert.ok(fields.duration_ms < 1000, `duration_ms ${fields.duration_ms}`);
      assert.equal(fields.slow, undefined);
    } finally {
      await server.close();
    }
  });

  it('on workerd too, where ctx.waitUntil keeps the timer past the answer', async () => {
    let output = '';
    const script = await bundleWorker(
      new URL('../fixtures/web/replaced-404-worker.ts', import.meta.url),
    );
    const server = await startWorkerd({
      script,
      onOutput: (text) => {
        output += text;
      },
    });
    try {
      assert.equal((await send(server, { path: '/.env' })).status, 404);
      const deadline = Date.now() + AT_MOST_MS + 3000;
      while (!output.includes('/.env') && Date.now() < deadline) await sleep(50);
      assert.match(output, /\/\.env 404 -\n/);
    } finally {
      await server.close();
    }
  });
});

describe('fetchLogger under Hono, registered first', () => {
  it("logs the outer middleware's page when it is delivered, its size counted", async () => {
    const capture = captureLines();
    const log = fetchLogger('json', { stream: capture.stream });
    const server = await serveFetch(replaced404App(log, true).fetch);
    try {
      const started = performance.now();
      await send(server, { path: '/.env' });
      await capture.waitFor(1);
      assert.ok(performance.now() - started < AT_LEAST_MS / 2);
      assert.deepEqual(
        fieldsOf(capture).map(([path, status, size]) => [path, status, size]),
        [['/.env', 404, PAGE_404.length]],
      );
    } finally {
      await server.close();
    }
  });
});

describe('fetchLogger and a watched body read late or never', () => {
  it('writes the line of a Response no one reads, and no second one when it is read later', async () => {
    const capture = captureLines();
    const log = fetchLogger(':url :status :res-body-bytes', { stream: capture.stream });
    const response = await log((_request: Request) => new Response(streamOf('never sent')))(
      new Request('http://localhost/dropped'),
    );
    await sleep(AT_LEAST_MS - 200);
    assert.deepEqual(capture.lines, []);
    assert.deepEqual(await capture.waitFor(1, AT_MOST_MS + 1000), ['/dropped 200 -']);
    assert.equal(await response.text(), 'never sent');
    await sleep(50);
    assert.deepEqual(capture.lines, ['/dropped 200 -']);
  });

  it('gives each unread body its line 1 to 2 s after its own Response, across sweeps', async () => {
    const written: Array<[string, number]> = [];
    const log = fetchLogger(':url :res-body-bytes', {
      stream: { write: (line: string) => written.push([line.trimEnd(), performance.now()]) > 0 },
    });
    const handler = log((_request: Request) => new Response(streamOf('never sent')));
    const handedOn: Record<string, number> = {};
    for (const path of ['/first', '/second', '/third']) {
      await handler(new Request(`http://localhost${path}`));
      handedOn[path] = performance.now();
      await sleep(700);
    }
    const deadline = performance.now() + AT_MOST_MS + 2000;
    while (written.length < 3 && performance.now() < deadline) await sleep(50);
    assert.deepEqual(
      written.map(([line]) => line),
      ['/first -', '/second -', '/third -'],
    );
    for (const [line, at] of written) {
      const path = line.split(' ')[0] as string;
      const after = at - (handedOn[path] as number);
      assert.ok(after >= AT_LEAST_MS && after < AT_MOST_MS + 700, `${path} after ${after} ms`);
    }
  });

  it('leaves a body whose delivery began to its end, however long it takes', async () => {
    const capture = captureLines();
    const log = fetchLogger(':status :res-body-bytes', { stream: capture.stream });
    const slow = piecesUntil(sleep(AT_MOST_MS + 500));
    const server = await serveFetch(log((_request: Request) => new Response(slow)));
    try {
      const reply = await send(server, { path: '/' });
      assert.equal(reply.text, 'first,last');
      assert.deepEqual(await capture.waitFor(1), ['200 10']);
      await sleep(50);
      assert.equal(capture.lines.length, 1);
    } finally {
      await server.close();
    }
  });

  it('leaves a body first read late, but before the bound, to its end', async () => {
    const capture = captureLines();
    const log = fetchLogger(':status :res-body-bytes', { stream: capture.stream });
    let open = () => {};
    const pieces = piecesUntil(
      new Promise<void>((resolve) => {
        open = resolve;
      }),
    );
    const response = await log((_request: Request) => new Response(pieces))(
      new Request('http://localhost/'),
    );
    // Read from past the first sweep (1 s in) to past the bound (2 s in).
    await sleep(AT_LEAST_MS + 300);
    const reading = response.text();
    await sleep(AT_MOST_MS - AT_LEAST_MS + 200);
    open();
    assert.equal(await reading, 'first,last');
    assert.deepEqual(await capture.waitFor(1), ['200 10']);
  });

  it('does not keep the process alive for the line of a body never delivered', async () => {
    const result = await runFixture('undelivered-exit.ts');
    assert.equal(result.code, 0, result.stderr);
    // Milliseconds from the Response to the exit: a timer holding the process would make it
    // AT_LEAST_MS or more.
    const ms = Number(result.stdout.trim());
    assert.ok(ms < AT_LEAST_MS / 2, `exited ${result.stdout.trim()} ms after the Response`);
  });
});
