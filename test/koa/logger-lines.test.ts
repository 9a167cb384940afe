import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { koa } from '../../src/index.js';
import type { PredefinedFormat } from '../../src/logger/types.js';
import { send } from '../helpers/client.js';
import { koaVersions, serveKoa } from '../helpers/koa.js';
import { captureLines } from '../helpers/lines.js';
import {
  exactLinesEachTest,
  nodeLineForOk,
  fullRequest as request,
  withoutPorts,
} from '../helpers/logger.js';

// The Koa logger is the Node logger run over ctx.req/ctx.res: for the same exchange, every
// predefined format writes the line httpware/logger writes on node:http. The servers listen on
// different ports, which the json and ecs lines name: the ports are masked in both.

exactLinesEachTest();

const formats: readonly PredefinedFormat[] = [
  'combined',
  'common',
  'dev',
  'short',
  'tiny',
  'json',
  'ecs',
];

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
    return line as string;
  } finally {
    await server.close();
  }
}

for (const version of koaVersions) {
  describe(`${version}: the logger's predefined formats`, () => {
    for (const format of formats) {
      test(`${format} writes the line the Node logger writes for the same exchange`, async () => {
        const expected = await nodeLineForOk(format);
        const actual = await koaLine(version, format);
        assert.equal(withoutPorts(actual), withoutPorts(expected));
      });
    }
  });
}
