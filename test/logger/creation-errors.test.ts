// Bad arguments are TypeErrors naming the argument, thrown when the logger is created.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchLogger, logger } from '../../src/logger/index.js';
import { captureWarnings } from '../helpers/warnings.js';

// `buffer` below is deprecated: its warning is taken, not printed.
captureWarnings();

const anyLogger = logger as unknown as (...args: unknown[]) => unknown;

describe('errors at creation', () => {
  it('a missing format is a TypeError', () => {
    assert.throws(() => anyLogger(), { name: 'TypeError', message: /argument format/ });
  });

  for (const [label, value] of [
    ['a number', 42],
    ['null', null],
    ['an options object (the old morgan(options) form)', { format: 'tiny' }],
    ['an array', [':method']],
  ] as const) {
    it(`a format that is ${label} is a TypeError`, () => {
      assert.throws(() => anyLogger(value), { name: 'TypeError', message: /argument format/ });
    });
  }

  it('any string is accepted: a name that is not registered is a format string', () => {
    assert.equal(typeof logger('no-such-format'), 'function');
    assert.equal(typeof logger(''), 'function');
  });

  for (const [label, value] of [
    ['a string', 'yes'],
    ['true', true],
  ] as const) {
    it(`a skip that is ${label} is a TypeError`, () => {
      assert.throws(() => anyLogger('tiny', { skip: value }), {
        name: 'TypeError',
        message: /option skip/,
      });
    });
  }

  for (const [label, value] of [
    ['a string', 'out.log'],
    ['an object without write', { end() {} }],
    ['an object whose write is not a function', { write: 'x' }],
  ] as const) {
    it(`a stream that is ${label} is a TypeError`, () => {
      assert.throws(() => anyLogger('tiny', { stream: value }), {
        name: 'TypeError',
        message: /option stream/,
      });
    });
  }

  it('a null skip, a null stream and a non-boolean immediate are accepted, as in morgan', () => {
    assert.equal(typeof anyLogger('tiny', { skip: null, stream: null, immediate: 1 }), 'function');
  });

  it('options that are not an object are a TypeError', () => {
    assert.throws(() => anyLogger('tiny', 'stdout'), {
      name: 'TypeError',
      message: /argument options/,
    });
  });

  it('absent options, null options and unknown option names are accepted', () => {
    assert.equal(typeof anyLogger('tiny'), 'function');
    assert.equal(typeof anyLogger('tiny', null), 'function');
    assert.equal(typeof anyLogger('tiny', { colours: true }), 'function');
  });

  it('the caller’s options object is not modified', () => {
    const options = Object.freeze({ immediate: true, skip: false as const });
    assert.equal(typeof logger('tiny', options), 'function');
  });
});

describe('trustProxy errors at creation, through both doors', () => {
  const anyFetchLogger = fetchLogger as unknown as (...args: unknown[]) => unknown;
  for (const [label, options, message] of [
    ['an object', { trustProxy: { hops: 1 } }, /option trustProxy/],
    ['a negative hop count', { trustProxy: -1 }, /hop count/],
    ['a fractional hop count', { trustProxy: 1.5 }, /hop count/],
    ['not an address', { trustProxy: 'proxy.example' }, /not an IP address/],
    ['an empty string', { trustProxy: '' }, /not an IP address/],
    ['a short IPv4 form', { trustProxy: '127.1' }, /not an IP address/],
    ['a prefix past the width', { trustProxy: '10.0.0.0/33' }, /invalid range/],
    ['a netmask with holes', { trustProxy: '10.0.0.0/255.0.255.0' }, /invalid range/],
    ['a list of numbers', { trustProxy: [10] }, /a list holds/],
    ['another header', { trustProxy: 1, forwardedHeader: 'x-real-ip' }, /forwardedHeader/],
    ['a header without trustProxy', { forwardedHeader: 'forwarded' }, /needs the trustProxy/],
  ] as const) {
    it(`a trustProxy setting that is ${label} is a TypeError`, () => {
      assert.throws(() => anyLogger('tiny', options), { name: 'TypeError', message });
      assert.throws(() => anyFetchLogger('tiny', options), { name: 'TypeError', message });
    });
  }
});
