// The options `exclude`, `sample`, `slow` and `level` are checked when the logger is created:
// a value that cannot work is a TypeError naming the option, on both doors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchLogger, logger } from '../../src/logger/index.js';

const anyLogger = logger as unknown as (format: string, options: unknown) => unknown;
const anyFetchLogger = fetchLogger as unknown as (format: string, options: unknown) => unknown;

const refused: ReadonlyArray<readonly [string, Record<string, unknown>, RegExp]> = [
  ['exclude as an array', { exclude: ['/health'] }, /option exclude must be an object/],
  ['exclude with a misspelt field', { exclude: { path: ['/health'] } }, /no field "path"/],
  ['a path without its slash', { exclude: { paths: ['health'] } }, /exclude\.paths: "health"/],
  ['a glob-looking path', { exclude: { paths: ['/assets/*.js'] } }, /no other "\*"/],
  ['a star that is not after a slash', { exclude: { paths: ['/api*'] } }, /no other "\*"/],
  ['paths as a string', { exclude: { paths: '/health' } }, /exclude\.paths must be an array/],
  ['a method that is no token', { exclude: { methods: ['GET /'] } }, /exclude\.methods/],
  [
    'HEAD without GET (HEAD runs the GET routes)',
    { exclude: { methods: ['OPTIONS', 'head'] } },
    /exclude\.methods: HEAD runs the GET routes/,
  ],
  ['a status out of range', { exclude: { statuses: [99] } }, /exclude\.statuses/],
  ['a reversed range', { exclude: { statuses: [[399, 300]] } }, /exclude\.statuses/],
  ['a class that is not one', { exclude: { statuses: ['6xx'] } }, /exclude\.statuses/],
  ['a rate above 1', { sample: 1.5 }, /option sample must be a rate/],
  ['a rate that is NaN', { sample: Number.NaN }, /option sample must be a rate/],
  ['a rate as a string', { sample: '0.1' }, /option sample must be a rate/],
  ['sample without a rate', { sample: { keepStatus: 500 } }, /option sample must be a rate/],
  ['sample with a misspelt field', { sample: { rate: 0.1, keep: 500 } }, /no field "keep"/],
  ['a keepStatus that is no status', { sample: { rate: 0.1, keepStatus: 40 } }, /keepStatus/],
  ['traceId that is not a boolean', { sample: { rate: 0.1, traceId: 'yes' } }, /traceId/],
  ['slow as a string', { slow: '500ms' }, /option slow must be a number/],
  ['slow below 0', { slow: -1 }, /option slow must be a number/],
  ['level as a string', { level: 'warn' }, /option level must be a function/],
  ['sample with immediate', { sample: 0.5, immediate: true }, /not with immediate/],
  ['slow with immediate', { slow: 100, immediate: true }, /not with immediate/],
  [
    'statuses with immediate',
    { exclude: { statuses: [304] }, immediate: true },
    /not with immediate/,
  ],
];

describe('production controls checked at creation', () => {
  for (const [label, options, message] of refused) {
    it(`${label} is a TypeError`, () => {
      assert.throws(() => anyLogger('tiny', options), { name: 'TypeError', message });
      assert.throws(() => anyFetchLogger('tiny', options), { name: 'TypeError', message });
    });
  }

  it('null and undefined mean off, as for the other options', () => {
    const off = { exclude: null, sample: null, slow: null, level: null };
    assert.equal(typeof anyLogger('tiny', off), 'function');
    assert.equal(typeof anyLogger('tiny', { exclude: undefined, sample: undefined }), 'function');
  });

  it('the caller’s exclude lists are not changed', () => {
    const paths = Object.freeze(['/health', /^\/x/g]);
    const exclude = Object.freeze({ paths, methods: Object.freeze(['options']) });
    assert.equal(typeof anyLogger('tiny', { exclude }), 'function');
    assert.equal(paths[1] instanceof RegExp && paths[1].flags, 'g');
  });
});
