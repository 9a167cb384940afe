// Which keys of a request body look like secrets (the logger's `body` option). A body's keys are
// the application's own names, spelt every way (`otpCode`, `mfa_code`, `X-API-KEY`,
// `newpassword`), so a key is read as words, not compared whole as a header or a query
// parameter is (those names are fixed by protocols, and the `redact` lists name them exactly).
//
// Three rules, any of which masks:
// - the key's words hold a listed word or word sequence, the last word maybe plural
//   (`pinCode`, `user_ssn`, `recoveryCodes`, `securityAnswer`), as whole words: `pin` masks
//   `pinCode` but not `spinner`, `opinion` or `pinned`; `code` and `key` are listed only after
//   the words that make them secrets (`verification code`, `signing key`), so `postalCode`,
//   `countryCode` and `primaryKey` are kept;
// - the key, lower-cased without separators, contains a long name that is a secret however it
//   is spelt (`password`, `token`), so a key written as one word (`newpassword`, Django's
//   `csrfmiddlewaretoken`) is masked too, and so is `tokenizer`: a field lost costs less than a
//   credential in the log;
// - the key, so reduced, is a short name that is a secret only alone (`code`, OAuth's
//   authorization code; `key`; `pan`), or a name of the logger's `redact` lists.

/**
 * Words: runs of letters split where camelCase starts a word (`APIKey`: `API`, `Key`), runs of
 * digits, and runs of letters without case (`密码`), so that a name in any script is kept whole.
 */
const WORD = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|[\p{Lt}\p{Lm}\p{Lo}\p{M}]+|\p{N}+/gu;

/** Secret words and word sequences, matched on whole words (listed as the splitting gives them). */
export const SECRET_WORDS: readonly string[] = [
  'pin',
  'pwd',
  'otp',
  'totp',
  'hotp',
  'otpauth',
  'mfa',
  '2 fa',
  'two factor code',
  'one time code',
  'ssn',
  'social security',
  'jwt',
  'bearer',
  'verification code',
  'confirmation code',
  'activation code',
  'access code',
  'auth code',
  'login code',
  'sms code',
  'reset code',
  'unlock code',
  'recovery code',
  'backup code',
  'card code',
  'card verification',
  'security answer',
  'security question answer',
  'recovery phrase',
  'seed words',
  'auth key',
  'access key',
  'recovery key',
  'encryption key',
  'master key',
];

/**
 * Names that mark a secret wherever they appear in a key lower-cased without separators: long
 * enough that an ordinary name rarely holds one.
 */
export const SECRET_STEMS: readonly string[] = [
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'secret',
  'token',
  'authorization',
  'apikey',
  'privatekey',
  'privkey',
  'signingkey',
  'credential',
  'cookie',
  'session',
  'cardnumber',
  'creditcard',
  'cardcvc',
  'cvv',
  'cvc',
  'securitycode',
  'seedphrase',
  'mnemonic',
];

/** Short names that mark a secret only as a whole key (`code`, not `postalCode`). */
export const SECRET_KEYS: readonly string[] = [
  'pass',
  'auth',
  'key',
  'code',
  'pan',
  'cc',
  'ccnum',
  'ccnumber',
  'card',
  'sig',
];

/** In a key's words joined by spaces: a secret sequence's words in a row, the last maybe plural. */
const WORDS = new RegExp(`(?:^| )(?:${SECRET_WORDS.join('|')})s?(?: |$)`);
const STEMS = new RegExp(SECRET_STEMS.join('|'));

/** The lower-cased words of a key. */
function keyWords(key: string): string[] {
  return (key.match(WORD) ?? []).map((word) => word.toLowerCase());
}

/** A key as whole-key names are compared: lower-cased words, joined. */
function squashedKey(key: string): string {
  return keyWords(key).join('');
}

/** Decisions remembered per matcher: body keys repeat from request to request. */
const CACHE_ENTRIES = 512;
/** Longer keys are decided each time, never held: the cache stays under 512 short strings. */
const CACHED_KEY_LENGTH = 64;

/**
 * Whether a body key looks like a secret: the rules above, and the names in `names` (the
 * `redact` lists) as whole keys. The decision is cached per key, within a bound.
 */
export function secretKeyMatcher(names: Iterable<string>): (key: string) => boolean {
  const whole = new Set(SECRET_KEYS);
  for (const name of names) {
    const squashed = squashedKey(name);
    if (squashed !== '') whole.add(squashed);
  }
  const decide = (key: string): boolean => {
    const list = keyWords(key);
    const squashed = list.join('');
    return whole.has(squashed) || STEMS.test(squashed) || WORDS.test(list.join(' '));
  };
  const decided = new Map<string, boolean>();
  return (key) => {
    const known = decided.get(key);
    if (known !== undefined) return known;
    const secret = decide(key);
    if (key.length <= CACHED_KEY_LENGTH) {
      // A full cache starts again: keys a client made up do not stay in it for good.
      if (decided.size >= CACHE_ENTRIES) decided.clear();
      decided.set(key, secret);
    }
    return secret;
  };
}
