// The user name of HTTP Basic authentication (RFC 7617), read exactly as the basic-auth
// package that morgan uses reads it, so `:remote-user` matches morgan byte for byte, except
// for one credential. Services that hand out API keys take them as a Basic user name with an
// empty password (`curl -u sk_live_...:`, Stripe's scheme): there the user name IS the secret,
// and while the logger masks `Authorization` it writes the mask instead of that name.

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
 * The user name as a line writes it under `policy`: the mask when the password is blank (the
 * name is then an API key) and `policy` masks the `Authorization` header, the name otherwise.
 * A name with a password costs a regular expression more than `basicAuthUser`, which fails at
 * the password's first character that is not white space.
 */
export function loggedUser(policy: RedactPolicy, header: unknown): string | undefined {
  const parts = userPass(header);
  if (parts === null) return undefined;
  const user = parts[1] as string;
  return blank(parts[2] as string) && user !== '' && policy.headers.has('authorization')
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
