// The user name of HTTP Basic authentication (RFC 7617), read exactly as the basic-auth
// package that morgan uses reads it, so `:remote-user` matches morgan byte for byte, except
// for one credential. Services that hand out API keys take them as a Basic user name with an
// empty password (`curl -u sk_live_...:`, Stripe's scheme): there the user name IS the secret,
// and while the logger masks `Authorization` it writes the mask instead of that name. An empty
// password alone does not make a key: `tj:` is a user with no password (morgan's own suite
// logs it), so the name must also look like a key (`looksLikeKey`).

import { MASK, type RedactPolicy } from './redact.js';

/**
 *   credentials = auth-scheme 1*SP token68
 *   auth-scheme = "Basic" ; case insensitive
 *   token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 * (with the optional spaces around it that basic-auth tolerates)
 */
const CREDENTIALS = /^ *(?:[Bb][Aa][Ss][Ii][Cc]) +([A-Za-z0-9._~+/-]+=*) *$/;

/**
 *   user-pass = userid ":" password
 *   userid    = *<TEXT excluding ":">
 *   password  = *TEXT
 * `.` does not match line terminators, so a password holding one makes the whole credential
 * invalid (the user is then absent), as in basic-auth.
 */
const USER_PASS = /^([^:]*):(.*)$/;

const BLANK = /^[\s\0]*$/;

/** The user name from an `Authorization: Basic ...` header value, or undefined. */
export function basicAuthUser(header: unknown): string | undefined {
  return userPass(header)?.[1];
}

/**
 * Prefixes that providers put before their keys so that secret scanners can find them: Stripe
 * (`sk_`, `rk_`), GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), Slack
 * (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxe-`), AWS access key ids (`AKIA`, `ASIA`), GitLab
 * (`glpat-`), npm (`npm_`), SendGrid (`SG.`), Shopify (`shpat_`, `shpss_`), Mailgun (`key-`).
 * Matched case-sensitively, as they are issued, on a name of 16 or more characters of the key
 * alphabet (the shortest of these keys, an AWS id, has 20), so `sk_bob` stays a name.
 */
const KEY_PREFIX =
  /^(?:[sr]k_|gh[pousr]_|github_pat_|xox[bpare]-|A[KS]IA|glpat-|npm_|SG\.|shp(?:at|ss)_|key-)/;

/** The characters keys are written in: base64, base64url and hex, with `-`, `.` and `~`. */
const KEY_ALPHABET = /^[A-Za-z0-9._~+/=-]+$/;

/**
 * Whether a user name sent with no password is an API key rather than a person's name: a name
 * of the key alphabet with a provider's prefix and 16 or more characters, or one of 20 or more
 * whose digits and letters are interleaved (a digit before a letter and a letter before a
 * digit). A person's name is shorter, holds `@`, a space or other punctuation, is letters only
 * (`christopher_alexander`) or ends in a number (`firstname.lastname2024`); a key is long and
 * mixes its digits into its letters (`4eC39HqLyjWDarjtT1zdp7dc`, a UUID, hex).
 */
export function looksLikeKey(user: string): boolean {
  if (user.length < 16 || !KEY_ALPHABET.test(user)) return false;
  return KEY_PREFIX.test(user) || (user.length >= 20 && interleaved(user));
}

function interleaved(text: string): boolean {
  let letter = false;
  let digit = false;
  let digitThenLetter = false;
  let letterThenDigit = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i) | 0x20;
    if (code >= 0x61 && code <= 0x7a) {
      letter = true;
      digitThenLetter ||= digit;
    } else if (code >= 0x30 && code <= 0x39) {
      digit = true;
      letterThenDigit ||= letter;
    }
  }
  return digitThenLetter && letterThenDigit;
}

/**
 * The user name as a line writes it under `policy`: the mask when the password is blank, the
 * name looks like a key (then it is one) and `policy` masks the `Authorization` header, the
 * name otherwise.
 * A name with a password costs a regular expression more than `basicAuthUser`, which fails at
 * the password's first character that is not white space.
 */
export function loggedUser(policy: RedactPolicy, header: unknown): string | undefined {
  const parts = userPass(header);
  if (parts === null) return undefined;
  const user = parts[1] as string;
  return blank(parts[2] as string) && looksLikeKey(user) && policy.headers.has('authorization')
    ? MASK
    : user;
}

/**
 * A password that is no password: empty (`curl -u key:`), or only spaces, tabs, NULs or other
 * white space, which clients that insist on a password are given.
 */
function blank(password: string): boolean {
  return password === '' || BLANK.test(password);
}

function userPass(header: unknown): RegExpExecArray | null {
  if (typeof header !== 'string') return null;
  const credentials = CREDENTIALS.exec(header);
  if (credentials === null) return null;
  return USER_PASS.exec(Buffer.from(credentials[1] ?? '', 'base64').toString());
}
