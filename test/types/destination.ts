// `destination`'s public types, checked by `tsc` (each `@ts-expect-error` fails the type check
// if the misuse compiles). Not a test file: nothing here is run. It is a `stream` wherever a
// stream goes: the Node middleware, fetchLogger, Koa and Fastify.
import Fastify from 'fastify';
import Koa from 'koa';
import {
  type Destination,
  type DestinationOptions,
  type DestinationStats,
  fastify,
  fetchLogger,
  koa,
  logger,
} from '../../src/index.js';
import { destination } from '../../src/logger/index.js';

const types = (_name: string, _checks: () => void): void => {};

types('destination', () => {
  types('a file path or a descriptor, with options, as the stream of every door', () => {
    const options: DestinationOptions = {
      mkdir: true,
      sync: false,
      batchBytes: 65536,
      batchMs: 20,
      maxBytes: 16 * 1024 * 1024,
      reopenOn: 'SIGHUP',
      exitTimeoutMs: 1000,
    };
    const file: Destination = destination('./access.log', options);
    const stdout: Destination = logger.destination(1);
    logger('combined', { stream: file });
    fetchLogger('combined', { stream: stdout });
    new Koa().use(koa.logger('combined', { stream: logger.destination(2, null) }));
    Fastify().register(fastify.httpwareLogger, { format: 'combined', stream: file });
  });

  types('flush, flushSync, end, reopen and stats', async () => {
    const out = destination('./access.log');
    const flushed: Promise<void> = out.flush();
    await flushed;
    out.flushSync();
    out.reopen();
    out.end();
    const stats: DestinationStats = out.stats();
    const counts: number[] = [stats.written, stats.dropped, stats.held, stats.errors];
    const code: string | undefined = stats.lastError;
    void [counts, code];
  });

  types('misuse is a type error', () => {
    // @ts-expect-error a target is a path or a descriptor
    destination({ path: './access.log' });
    // @ts-expect-error reopenOn names a signal
    destination('./a.log', { reopenOn: 'HUP' });
    // @ts-expect-error maxBytes is a number of bytes
    destination('./a.log', { maxBytes: '16mb' });
    // @ts-expect-error stats are read-only
    destination(1).stats().dropped = 0;
  });
});
