import { describe, it } from 'node:test';
import { parsers } from '../../src/index.js';
import { assertBody, exchange } from '../helpers/parsers.js';

describe('parsers.raw', () => {
  it('reads an application/octet-stream body as a Buffer', async () => {
    const body = Buffer.from([0x00, 0xff, 0x10, 0x80]);
    assertBody(await exchange(parsers.raw(), 'application/octet-stream', body), body);
  });

  it('reads an empty body as an empty Buffer', async () => {
    assertBody(await exchange(parsers.raw(), 'application/octet-stream', ''), Buffer.alloc(0));
  });

  it('ignores the charset parameter (bytes are not decoded)', async () => {
    const body = Buffer.from('caf\xe9', 'latin1');
    const result = await exchange(parsers.raw(), 'application/octet-stream; charset=x-bogus', body);
    assertBody(result, body);
  });

  it('parses a vendor type given as type', async () => {
    const parser = parsers.raw({ type: 'application/vnd.custom-type' });
    assertBody(
      await exchange(parser, 'application/vnd.custom-type', 'the user is tobi'),
      Buffer.from('the user is tobi'),
    );
  });

  it('skips other media types', async () => {
    assertBody(await exchange(parsers.raw(), 'text/plain', 'x'), undefined);
  });
});
