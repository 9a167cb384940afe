// The default redaction lists: what docs/security.md says is masked is exactly what
// `redactDefaults` exports, name for name and in order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { redactDefaults } from '../../src/index.js';

/** The names listed by the bullet of docs/security.md that starts with `label`. */
function documented(label: string): string[] {
  const doc = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## What is masked by default'));
  const start = section.indexOf(`- **${label}**`);
  assert.notEqual(start, -1, `no "${label}" bullet in docs/security.md`);
  const end = section.indexOf('\n- **', start + 1);
  const bullet = section.slice(start, end === -1 ? undefined : end);
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
});
