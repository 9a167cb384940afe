// The default redaction lists: what docs/security.md says is masked is exactly what
// `redactDefaults` exports, name for name and in order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { redactDefaults } from '../../src/index.js';
import { SECRET_KEYS, SECRET_STEMS, SECRET_WORDS } from '../../src/logger/core/secret-names.js';

/**
 * The names listed by the bullet of docs/security.md that starts with `label`, `indent` spaces
 * in (a rule of the body keys' bullet is a bullet inside it).
 */
function documented(label: string, indent = ''): string[] {
  const doc = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## What is masked by default'));
  const start = section.indexOf(`${indent}- **${label}**`);
  assert.notEqual(start, -1, `no "${label}" bullet in docs/security.md`);
  const end = section.slice(start + 1).search(/\n *- \*\*|\n\n/) + start + 1;
  const bullet = section.slice(start, end === start ? undefined : end);
  // The list follows the bullet's last colon: "... (keeping an `Authorization` scheme): `a`, `b`."
  const list = bullet.slice(bullet.lastIndexOf(': '));
  return [...list.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

describe('the default redaction lists', () => {
  it('docs/security.md lists exactly the exported headers', () => {
    assert.deepEqual(documented('Headers'), [...redactDefaults.headers]);
  });

  it('docs/security.md lists exactly the exported query parameters', () => {
    assert.deepEqual(documented('Query parameters'), [...redactDefaults.query]);
  });

  it('docs/security.md lists exactly the secret words of body keys', () => {
    assert.deepEqual(documented('Secret words', '  '), [...SECRET_WORDS]);
  });

  it('docs/security.md lists exactly the secret names found anywhere in body keys', () => {
    assert.deepEqual(documented('Secret names anywhere', '  '), [...SECRET_STEMS]);
  });

  it('docs/security.md lists exactly the body keys secret alone', () => {
    assert.deepEqual(documented('Secret alone', '  '), [...SECRET_KEYS]);
  });
});
