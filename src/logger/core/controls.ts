// The production controls of a logger, resolved once at creation: which requests are left out
// (`exclude`), which successes are kept (`sample`), which requests are slow (`slow`) and each
// line's level (`level`). All off by default: a logger without them never reaches this file
// per request (writer.ts and the doors pick their plain paths at creation).

import type { LogRequest, LogResponse } from '../types.js';
import { isUnset } from './option-off.js';
import { pathOf } from './url-parts.js';

/** Every level a `level` function may return; `silent` writes nothing. */
export const LEVELS: ReadonlySet<string> = new Set([
  'trace',
  'debug',
  'info',
  'warn',
  'error',
  'fatal',
  'silent',
]);

/** The levels below `warn`, which a slow request is raised from. */
const BELOW_WARN: ReadonlySet<string> = new Set(['trace', 'debug', 'info']);

/** Whether a request is left out on arrival, from its method and target (path and query). */
export type ArrivalExclusion = (method: string | undefined, target: string | undefined) => boolean;

/** The controls of one logger; undefined fields are off. */
export interface Controls {
  readonly excluded: ArrivalExclusion | undefined;
  readonly excludedStatus: ((status: number) => boolean) | undefined;
  /** The share of successful requests kept, in [0, 1]. */
  readonly rate: number | undefined;
  /** The lowest status always kept when sampling. */
  readonly keepStatus: number;
  /**
   * Whether sampling follows the request's trace: its active span's sampled flag, else the
   * trace id of its `traceparent` (writer.ts, `sampledIn`).
   */
  readonly byTraceId: boolean;
  /** OpenTelemetry's rejection threshold for `rate` as two 28-bit halves (see `keptByTraceId`). */
  readonly threshold: readonly [number, number];
  readonly slowMs: number | undefined;
  readonly level: ((req: LogRequest, res: LogResponse) => unknown) | undefined;
}

// Exclusion

/**
 * A path with a dot segment, raw or percent-encoded (RFC 3986, section 5.2.4): node:http hands
 * it on as sent, and a router or file server behind may resolve it elsewhere than its prefix
 * says (`/assets/../admin`). Such a request is never left out by its path. A segment ends at
 * `/`, and here also at `\` and at `%2f` and `%5c` (`/` and `\` percent-encoded, any case):
 * a static file server decodes the path before it joins it to its folder (`..%2fpackage.json`
 * then climbs out of `/assets/`), WHATWG URL parsers read `\` as `/`, and Windows paths use it.
 */
const DOT_SEGMENT = /(?:^|\/|\\|%2f|%5c)(?:\.|%2e){1,2}(?:\/|\\|%2f|%5c|$)/i;

/** A method name is an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function pathMatcher(given: unknown): (path: string) => boolean {
  if (!Array.isArray(given)) {
    throw new TypeError('option exclude.paths must be an array of paths and regular expressions');
  }
  const exact = new Set<string>();
  const prefixes: string[] = [];
  const patterns: RegExp[] = [];
  for (const item of given) {
    if (item instanceof RegExp) {
      // Without `g` and `y`, whose `lastIndex` would make one request's answer depend on the last.
      patterns.push(new RegExp(item.source, item.flags.replace(/[gy]/g, '')));
    } else if (typeof item === 'string' && item.startsWith('/') && starOnlyTrailing(item)) {
      if (item.endsWith('/*')) prefixes.push(item.slice(0, -1));
      else exact.add(item);
    } else {
      throw new TypeError(
        `option exclude.paths: ${JSON.stringify(String(item))} is neither a path starting with "/" (a trailing "/*" for a prefix, no other "*") nor a RegExp`,
      );
    }
  }
  return (path) =>
    (exact.has(path) ||
      prefixes.some((prefix) => path.startsWith(prefix)) ||
      patterns.some((pattern) => pattern.test(path))) &&
    !DOT_SEGMENT.test(path);
}

/**
 * The methods left out, upper-cased. HEAD follows GET's rule: it is GET without the response's
 * content (RFC 9110, section 9.3.2), and Express, Koa's router and Fastify answer it with the
 * GET handler, checks, side effects and status included. So GET leaves out HEAD too, and HEAD
 * without GET is refused: it would hide requests that run the application's GET routes (a
 * token tried by HEAD on `/reset?token=...` and its 403) from a line that logs the same by GET.
 */
function methodSet(given: unknown): ReadonlySet<string> {
  if (!Array.isArray(given) || !given.every((m) => typeof m === 'string' && TOKEN.test(m))) {
    throw new TypeError('option exclude.methods must be an array of method names');
  }
  // Node and the Request constructor hand the standard methods in upper case.
  const methods = new Set(given.map((m: string) => m.toUpperCase()));
  if (methods.has('HEAD') && !methods.has('GET')) {
    throw new TypeError(
      'option exclude.methods: HEAD runs the GET routes, so it is left out only with GET; leave out a path (exclude.paths) or decide in skip',
    );
  }
  if (methods.has('GET')) methods.add('HEAD');
  return methods;
}

const STATUS_CLASS = /^[1-5]xx$/;

function isStatus(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599;
}

function statusMatcher(given: unknown): (status: number) => boolean {
  const message =
    'option exclude.statuses must be an array of status codes (304), classes ("3xx") and ranges ([300, 399])';
  if (!Array.isArray(given)) throw new TypeError(message);
  const ranges: [number, number][] = [];
  for (const item of given) {
    if (isStatus(item)) ranges.push([item, item]);
    else if (typeof item === 'string' && STATUS_CLASS.test(item)) {
      const from = Number(item[0]) * 100;
      ranges.push([from, from + 99]);
    } else if (
      Array.isArray(item) &&
      item.length === 2 &&
      isStatus(item[0]) &&
      isStatus(item[1]) &&
      item[0] <= item[1]
    ) {
      ranges.push([item[0], item[1]]);
    } else {
      throw new TypeError(message);
    }
  }
  return (status) => ranges.some(([from, to]) => status >= from && status <= to);
}

const EXCLUDE_KEYS: ReadonlySet<string> = new Set(['paths', 'methods', 'statuses']);

function resolveExclude(
  exclude: unknown,
): Pick<Controls, 'excluded' | 'excludedStatus'> | undefined {
  if (isUnset(exclude)) return undefined;
  if (typeof exclude !== 'object' || Array.isArray(exclude)) {
    throw new TypeError('option exclude must be an object: { paths, methods, statuses }');
  }
  for (const key of Object.keys(exclude)) {
    if (!EXCLUDE_KEYS.has(key)) {
      throw new TypeError(
        `option exclude has no field ${JSON.stringify(key)} (paths, methods, statuses)`,
      );
    }
  }
  const { paths, methods, statuses } = exclude as Record<string, unknown>;
  const path = paths === undefined ? undefined : pathMatcher(paths);
  const method = methods === undefined ? undefined : methodSet(methods);
  const excluded: ArrivalExclusion | undefined =
    path === undefined && method === undefined
      ? undefined
      : (m, target) => {
          if (method?.has(`${m}`)) return true;
          if (path === undefined) return false;
          const p = pathOf(target);
          return p !== undefined && path(p);
        };
  return {
    excluded,
    excludedStatus: statuses === undefined ? undefined : statusMatcher(statuses),
  };
}

// Sampling

const TWO_28 = 2 ** 28;

/**
 * The OpenTelemetry specification's TraceIdRatioBased threshold for `rate` (OpenTelemetry JS's
 * own sampler decides otherwise): a trace is kept when the 56 lowest bits of its id (W3C Trace
 * Context level 2's random part), read as an integer R, are at least T = (1 - rate) * 2^56.
 * `1 - rate` in doubles is a multiple of 2^-53 (exact for a rate of 0.5 or more, which is one;
 * else rounded into (0.5, 1], where doubles are), so T is a whole multiple of 8 and `Math.round`
 * changes nothing (docs/logger.md gives the rounding). Held as two 28-bit halves so that the
 * comparison is exact in doubles.
 */
function thresholdOf(rate: number): [number, number] {
  const t = Math.round((1 - rate) * 2 ** 56);
  const high = Math.floor(t / TWO_28);
  return [high, t - high * TWO_28];
}

/** Whether the trace `traceId` (32 lower-case hex digits, checked when read) is kept. */
export function keptByTraceId(traceId: string, threshold: readonly [number, number]): boolean {
  const high = Number.parseInt(traceId.slice(18, 25), 16);
  const low = Number.parseInt(traceId.slice(25, 32), 16);
  return high > threshold[0] || (high === threshold[0] && low >= threshold[1]);
}

const SAMPLE_KEYS: ReadonlySet<string> = new Set(['rate', 'keepStatus', 'traceId']);

function isRate(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

function resolveSample(
  sample: unknown,
): Pick<Controls, 'rate' | 'keepStatus' | 'byTraceId' | 'threshold'> {
  const off = { rate: undefined, keepStatus: 400, byTraceId: false, threshold: [0, 0] as const };
  if (isUnset(sample)) return off;
  const message = 'option sample must be a rate from 0 to 1, or { rate, keepStatus?, traceId? }';
  if (isRate(sample))
    return { ...off, rate: sample, byTraceId: true, threshold: thresholdOf(sample) };
  if (typeof sample !== 'object') throw new TypeError(message);
  for (const key of Object.keys(sample)) {
    if (!SAMPLE_KEYS.has(key)) {
      throw new TypeError(
        `option sample has no field ${JSON.stringify(key)} (rate, keepStatus, traceId)`,
      );
    }
  }
  const { rate, keepStatus, traceId } = sample as Record<string, unknown>;
  if (!isRate(rate)) throw new TypeError(message);
  if (keepStatus !== undefined && !isStatus(keepStatus)) {
    throw new TypeError('option sample.keepStatus must be a status code (100 to 599)');
  }
  if (traceId !== undefined && typeof traceId !== 'boolean') {
    throw new TypeError('option sample.traceId must be a boolean');
  }
  return {
    rate,
    keepStatus: keepStatus ?? 400,
    byTraceId: traceId !== false,
    threshold: thresholdOf(rate),
  };
}

/** The controls in `options`, or undefined when none is on. */
export function resolveControls(
  options: Record<string, unknown>,
  immediate: boolean,
): Controls | undefined {
  const { exclude, sample, slow, level } = options;
  const exclusion = resolveExclude(exclude);
  const sampling = resolveSample(sample);
  if (!isUnset(slow) && !(typeof slow === 'number' && slow >= 0 && slow < Infinity)) {
    throw new TypeError('option slow must be a number of milliseconds');
  }
  if (!isUnset(level) && typeof level !== 'function') {
    throw new TypeError('option level must be a function of (req, res) returning a level');
  }
  const slowMs = typeof slow === 'number' ? slow : undefined;
  const excludedStatus = exclusion?.excludedStatus;
  if (
    immediate &&
    (sampling.rate !== undefined || slowMs !== undefined || excludedStatus !== undefined)
  ) {
    // An immediate line is written before any response: no status, duration or failure to go by.
    throw new TypeError(
      'options sample, slow and exclude.statuses need the response: not with immediate',
    );
  }
  const controls: Controls = {
    excluded: exclusion?.excluded,
    excludedStatus,
    ...sampling,
    slowMs,
    level: typeof level === 'function' ? (level as Controls['level']) : undefined,
  };
  const on =
    controls.excluded !== undefined ||
    excludedStatus !== undefined ||
    controls.rate !== undefined ||
    slowMs !== undefined ||
    controls.level !== undefined;
  return on ? controls : undefined;
}

/** `level` raised to `warn` for a slow request, if it is below. */
export function raisedForSlow(level: string): string {
  return BELOW_WARN.has(level) ? 'warn' : level;
}

/** The field naming the sampling rate on json and ecs lines and OpenTelemetry records. */
export const SAMPLE_RATE = 'sampling.rate';

/** A `*` only as a trailing "/*" (a prefix): anywhere else it would read as a glob it is not. */
function starOnlyTrailing(path: string): boolean {
  const star = path.indexOf('*');
  return star === -1 || (star === path.length - 1 && path.endsWith('/*'));
}
