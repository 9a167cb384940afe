// The user name of HTTP Basic authentication (RFC 7617), read exactly as the basic-auth
// package that morgan uses reads it, so `:remote-user` matches morgan byte for byte.

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

/** The user name from an `Authorization: Basic ...` header value, or undefined. */
export function basicAuthUser(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const credentials = CREDENTIALS.exec(header);
  if (credentials === null) return undefined;
  const decoded = Buffer.from(credentials[1] ?? '', 'base64').toString();
  return USER_PASS.exec(decoded)?.[1];
}
