// The three renderings of `:date[format]`, always in UTC.
//   clf: the Common Log Format date, `10/Oct/2000:13:55:36 +0000`
//   iso: ISO 8601 with milliseconds, `2000-10-10T13:55:36.000Z`
//   web: the RFC 7231 IMF-fixdate, `Tue, 10 Oct 2000 13:55:36 GMT` (`Date#toUTCString`)
// clf and web change once a second, so the last one of each is kept and reused within the
// same second: a busy server renders each at most once a second. iso is that second's
// rendering with the milliseconds added: `toISOString` costs about 750 ns, which a server that
// sees one request per millisecond or fewer would otherwise pay on every line.

import { dateRenderer, MONTHS, pad2 } from './local-date.js';

/** Formats a date as in the Common Log Format, in UTC. */
export function clfDate(date: Date): string {
  return (
    `${pad2(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}` +
    `:${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}` +
    ' +0000'
  );
}

/**
 * Caches the last rendering of a once-a-second format, keyed by the whole second. Takes the
 * time in milliseconds, so a line within the same second allocates no `Date` at all.
 */
function perSecond(render: (date: Date) => string): (ms: number) => string {
  let second = Number.NaN;
  let text = '';
  return (ms) => {
    const now = Math.floor(ms / 1000);
    if (now !== second) {
      second = now;
      text = render(new Date(ms));
    }
    return text;
  };
}

const cachedClf = perSecond(clfDate);
const cachedWeb = perSecond((date) => date.toUTCString());
/** The ISO date up to its milliseconds, `2000-10-10T13:55:36.` (any year: `+010000-...`). */
const cachedIsoSecond = perSecond((date) => date.toISOString().slice(0, -4));

/** `000` to `999`: the milliseconds of an ISO date. */
const MILLIS: readonly string[] = Array.from({ length: 1000 }, (_, n) =>
  String(n).padStart(3, '0'),
);

/** A `Date` holds times up to this many milliseconds either side of 1970. */
const MAX_TIME = 8.64e15;

/** The same with its opening quote, `"2000-10-10T13:55:36.`, for JSON lines. */
const cachedIsoSecondJson = perSecond((date) => `"${date.toISOString().slice(0, -4)}`);

/** `000Z"` to `999Z"`: the end of an ISO date in JSON. */
const MILLIS_JSON: readonly string[] = MILLIS.map((millis) => `${millis}Z"`);

/** `new Date(ms).toISOString()`, and throws where it does (an invalid or out-of-range time). */
export function isoDate(ms: number): string {
  // A `Date` drops fractions of a millisecond (mocked clocks give them).
  const whole = Math.trunc(ms);
  if (!(Math.abs(whole) <= MAX_TIME)) return new Date(whole).toISOString();
  return `${cachedIsoSecond(whole)}${MILLIS[whole - Math.floor(whole / 1000) * 1000]}Z`;
}

/** `isoDate(ms)` as a JSON string, made of two pieces where quoting the text took two more. */
export function isoDateJson(ms: number): string {
  const whole = Math.trunc(ms);
  if (!(Math.abs(whole) <= MAX_TIME)) return `"${new Date(whole).toISOString()}"`;
  return `${cachedIsoSecondJson(whole)}${MILLIS_JSON[whole - Math.floor(whole / 1000) * 1000]}`;
}

/**
 * `:date[format]`: `clf`, `iso` or `web`, or (local-date.ts) `local`, `iso-local` or a
 * layout; any other format gives `undefined`. The date is a
 * `Date` or a time in milliseconds (`Date.now()`).
 */
export function formatDate(date: Date | number, format: string): string | undefined {
  const ms = typeof date === 'number' ? date : date.getTime();
  switch (format) {
    case 'clf':
      return cachedClf(ms);
    case 'iso':
      return isoDate(ms);
    case 'web':
      return cachedWeb(ms);
    default:
      return dateRenderer(format)?.(ms);
  }
}
