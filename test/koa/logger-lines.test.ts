import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { koa } from '../../src/index.js';
import { logger } from '../../src/logger/index.js';
import type { PredefinedFormat } from '../../src/logger/types.js';
import { send } from '../helpers/client.js';
import { koaVersions, serveKoa } from '../helpers/koa.js';
import { captureLines } from '../helpers/lines.js';
import { fixTime, loggedServer } from '../helpers/logger.js';

// The Koa logger is the Node logger run over ctx.req/ctx.res: for the same exchange, every
// predefined format writes the line httpware/logger writes on node:http. The servers listen on
// different ports, which the json and ecs lines may name: the port is masked in both.

const formats: readonly PredefinedFormat[] = [
  'combined',
  'common',
  'dev',
  'short',
  'tiny',
  'json',
  'ecs',
];

const request = {
  path: '/items?page=2',
  headers: { 'user-agent': 'koa-test', referer: 'http://example.test/' },
} as const;

function masked(line: string, port: number): string {
  return line.replaceAll(String(port), '<port>');
}

async function nodeLine(format: PredefinedFormat): Promise<string> {
  const server = await loggedServer((stream) => logger(format, { stream }), {
    handler: (_req, res) => {
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.setHeader('content-length', '2');
      res.end('ok');
    },
  });
  try {
    await send(server, request);
    const [line] = await server.capture.waitFor(1);
    return masked(line as string, server.port);
  } finally {
    await server.close();
  }
}

async function koaLine(version: (typeof koaVersions)[number], format: PredefinedFormat) {
  const capture = captureLines();
  const server = await serveKoa(version, [
    koa.logger(format, { stream: capture.stream }),
    async (ctx) => {
      ctx.body = 'ok';
    },
  ]);
  try {
    await send(server, request);
    const [line] = await capture.waitFor(1);
    return masked(line as string, server.port);
  } finally {
    await server.close();
  }
}

for (const version of koaVersions) {
  describe(`${version}: the logger's predefined formats`, () => {
    for (const format of formats) {
      test(`${format} writes the line the Node logger writes for the same exchange`, async () => {
        const undo = fixTime();
        try {
          const expected = await nodeLine(format);
          const actual = await koaLine(version, format);
          assert.equal(actual, expected);
        } finally {
          undo();
        }
      });
    }
  });
}
