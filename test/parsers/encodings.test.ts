import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { parsers } from '../../src/index.js';
import { hasZstd } from '../../src/parsers/inflate.js';
import { assertBody, assertError, exchange } from '../helpers/parsers.js';

const JSON_TYPE = 'application/json';
const payload = '{"name":"论"}';

describe('content encodings', () => {
  it('inflates gzip', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, zlib.gzipSync(payload), {
      'content-encoding': 'gzip',
    });
    assertBody(result, { name: '论' });
  });

  it('inflates deflate (zlib format)', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, zlib.deflateSync(payload), {
      'content-encoding': 'deflate',
    });
    assertBody(result, { name: '论' });
  });

  it('inflates br', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, zlib.brotliCompressSync(payload), {
      'content-encoding': 'br',
    });
    assertBody(result, { name: '论' });
  });

  it('reads Content-Encoding case-insensitively', async () => {
    const result = await exchange(parsers.text(), 'text/plain', zlib.gzipSync('hi'), {
      'content-encoding': 'GZIP',
    });
    assertBody(result, 'hi');
  });

  it('inflates zstd where Node has it, else refuses it with 415 encoding.unsupported', async () => {
    const zstd = zlib as unknown as { zstdCompressSync?: (b: string) => Buffer };
    const body =
      hasZstd && zstd.zstdCompressSync ? zstd.zstdCompressSync(payload) : Buffer.from('x');
    const result = await exchange(parsers.json(), JSON_TYPE, body, { 'content-encoding': 'zstd' });
    if (hasZstd) assertBody(result, { name: '论' });
    else {
      assertError(result, 415, 'encoding.unsupported', 'unsupported content encoding "zstd"', {
        encoding: 'zstd',
      });
    }
  });

  it('refuses an unknown encoding with 415 encoding.unsupported', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, 'x', { 'content-encoding': 'nulls' });
    assertError(result, 415, 'encoding.unsupported', 'unsupported content encoding "nulls"', {
      encoding: 'nulls',
    });
  });

  it('refuses a list of encodings (only one coding is supported)', async () => {
    const result = await exchange(parsers.json(), JSON_TYPE, 'x', {
      'content-encoding': 'gzip, br',
    });
    assertError(result, 415, 'encoding.unsupported', 'unsupported content encoding "gzip, br"');
  });

  it('reports corrupt gzip as 400 entity.inflate.failed (deliberate: body-parser gives no type)', async () => {
    const corrupt = Buffer.from(
      '1f8b080000000000000bab56cc4d55b2527ab16e97522d00515be1cc0e000000',
      'hex',
    );
    const result = await exchange(parsers.json(), JSON_TYPE, corrupt, {
      'content-encoding': 'gzip',
    });
    const err = assertError(result, 400, 'entity.inflate.failed', /./);
    assert.ok((err as { cause?: unknown }).cause instanceof Error);
  });

  it('reports a truncated gzip body as 400 entity.inflate.failed', async () => {
    const truncated = zlib.gzipSync('{"a":"b"}').subarray(0, 12);
    const result = await exchange(parsers.json(), JSON_TYPE, truncated, {
      'content-encoding': 'gzip',
    });
    assertError(result, 400, 'entity.inflate.failed', 'unexpected end of file');
  });

  it('decodes the charset after inflation', async () => {
    const body = zlib.gzipSync(Buffer.from('caf\xe9', 'latin1'));
    const result = await exchange(parsers.text(), 'text/plain; charset=iso-8859-1', body, {
      'content-encoding': 'gzip',
    });
    assertBody(result, 'café');
  });
});
