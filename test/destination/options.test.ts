// A bad target or option is a TypeError when the destination is made, never a failure later.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { logger } from '../../src/logger/index.js';

const make = logger.destination as (target: unknown, options?: unknown) => unknown;

describe('destination(target, options) refuses at creation', () => {
  test('a target that is neither a path nor a descriptor', () => {
    for (const target of [undefined, null, '', -1, 1.5, Number.NaN, {}, ['a.log']]) {
      assert.throws(() => make(target), TypeError, String(target));
    }
  });

  test('options of the wrong type', () => {
    const bad: object[] = [
      { sync: 'yes' },
      { mkdir: 1 },
      { batchMs: -1 },
      { batchBytes: 0 },
      { maxBytes: Number.POSITIVE_INFINITY },
      { maxBytes: '16mb' },
      { exitTimeoutMs: Number.NaN },
      { reopenOn: 'HUP' },
      { reopenOn: 'SIGKILL' },
      { reopenOn: true },
      // The process would no longer end by these: reopening would be all they did.
      { reopenOn: 'SIGTERM' },
      { reopenOn: 'SIGINT' },
    ];
    for (const options of bad) {
      assert.throws(() => make(1, options), TypeError, JSON.stringify(options));
    }
    assert.throws(() => make(1, 'sync'), TypeError);
  });

  test('an option it does not know (a misspelt one would be ignored silently)', () => {
    assert.throws(() => make(1, { maxbytes: 10 }), /unknown option maxbytes/);
    assert.throws(() => make(1, { batchSize: 10 }), TypeError);
  });
});
