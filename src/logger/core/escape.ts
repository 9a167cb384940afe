// Every string a token yields goes through `escapeLogField` before it enters a line, so a URL,
// a header, a Basic-auth user name or a custom token cannot forge a second line (CR, LF, U+2028,
// U+2029), hide text from a terminal (ESC, C1 controls) or break out of a quoted field (`"`).
// The rule is morgan 1.12.1's, byte for byte: backslash and double quote get a backslash,
// \b \f \n \r \t their two-character escapes, every other C0 control, DEL, C1 control
// (U+0080-U+009F), U+2028 and U+2029 become `\uXXXX` with four lower-case hex digits.

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]/;
const UNSAFE_ALL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]/g;

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function escapeChar(ch: string): string {
  return SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Escapes a token's string value for a line-oriented log. */
export function escapeLogField(value: string): string {
  // Most values need nothing: test once before building a new string.
  return UNSAFE.test(value) ? value.replace(UNSAFE_ALL, escapeChar) : value;
}
