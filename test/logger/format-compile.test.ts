// parseFormat and compile: how a format string splits into literal text and token references,
// and the same rendering as morgan 1.12.1's generated code for any format.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import morgan from 'morgan';
import { compile, parseFormat } from '../../src/logger/text/compile.js';
import type { FormatFn, Tokens } from '../../src/logger/types.js';
import { fc } from '../helpers/properties.js';

const req = {} as IncomingMessage;
const res = {} as ServerResponse;

/** A tokens object that answers every name with `<name|arg>`, and `-` for `empty`. */
const echo = new Proxy(
  {},
  {
    get: (_target, name) =>
      name === 'empty'
        ? () => ''
        : (_req: unknown, _res: unknown, ...args: string[]) =>
            `<${String(name)}|${args.length}:${args.join(',')}>`,
  },
) as Tokens;

describe('parseFormat', () => {
  it('splits literal text and token references', () => {
    assert.deepEqual(parseFormat('a :method b :res[content-length] c'), [
      'a ',
      { name: 'method', arg: undefined },
      ' b ',
      { name: 'res', arg: 'content-length' },
      ' c',
    ]);
  });

  it('needs two name characters after the colon', () => {
    assert.deepEqual(parseFormat('12:3 :ab'), ['12:3 ', { name: 'ab', arg: undefined }]);
  });

  it('reads names of letters, digits, _ and -, up to the first other character', () => {
    assert.deepEqual(parseFormat(':a_b-c9.x'), [{ name: 'a_b-c9', arg: undefined }, '.x']);
  });

  it('takes an argument up to the first ], and needs one character in it', () => {
    assert.deepEqual(parseFormat(':xx[a[b]c]'), [{ name: 'xx', arg: 'a[b' }, 'c]']);
    assert.deepEqual(parseFormat(':yy[]'), [{ name: 'yy', arg: undefined }, '[]']);
  });

  it('a string without tokens is one literal; an empty string has no parts', () => {
    assert.deepEqual(parseFormat('plain text'), ['plain text']);
    assert.deepEqual(parseFormat(''), []);
  });
});

describe('compile', () => {
  it('renders a missing (falsy) value as -', () => {
    assert.equal(compile('[:empty]')(echo, req, res), '[-]');
  });

  it('passes the argument only when the format has one', () => {
    assert.equal(compile(':aa :bb[x y]')(echo, req, res), '<aa|0:> <bb|1:x y>');
  });

  it('passes the argument JSON-escaped, as morgan does', () => {
    assert.equal(compile(':xx[a"b\\c]')(echo, req, res), '<xx|1:a\\"b\\\\c>');
    const reference = morgan.compile(':xx[a"b\\c]') as unknown as FormatFn;
    assert.equal(reference(echo, req, res), '<xx|1:a\\"b\\\\c>');
  });

  it('renders like morgan 1.12.1 for any format string', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom(':', '[', ']', ':-', ':x', '::ab', ':ab[', ']'),
      fc
        .tuple(
          fc.stringMatching(/^[-\w]{1,6}$/),
          // Any characters but "]", those JSON escapes included (`"`, `\`, controls).
          fc.option(
            fc.string({ unit: 'binary', maxLength: 6 }).map((arg) => arg.replace(/\]/g, '')),
            {
              nil: undefined,
            },
          ),
        )
        .map(([name, arg]) => `:${name}${arg === undefined ? '' : `[${arg}]`}`),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const format = pieces.join('');
        const reference = morgan.compile(format) as unknown as (
          tokens: Tokens,
          req: IncomingMessage,
          res: ServerResponse,
        ) => string;
        assert.equal(compile(format)(echo, req, res), reference(echo, req, res));
      }),
      { numRuns: 300 },
    );
  });
});
