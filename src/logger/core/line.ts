// The line being made, and everything that belongs to it alone: the exchange it is about,
// what the production controls decided (level, `slow`, `sampling.rate`), whether errors are
// given verbatim, and what the line reads once however many fields show it (its duration, its
// time). The writer enters one `Line` per line and leaves it when the line is written (and
// its OpenTelemetry record emitted); nothing else is entered or left.
//
// Tokens are called as `tokens[name](req, res, arg)` (morgan's signature), so they cannot be
// handed the line: a line is rendered synchronously, so while it is, it is the module's
// `current` one, and a token finds it there. A token about another request (or called by the
// application outside a line) reads no exchange: it knows no arrival and no head, as if the
// logger had not seen the request.

import type { LogRequest, LogResponse } from '../types.js';
import type { Exchange } from './exchange.js';

/**
 * One line's context. Every field is assigned in the constructor (through `renew`), in one
 * order (see exchange.ts for why there are no class-field initialisers).
 */
export class Line {
  /** The exchange the line is about; undefined for a JSON format called outside a logger. */
  declare exchange: Exchange | undefined;
  /** `errorMessage: 'verbatim'`: every error's own message, even one that may quote a body. */
  declare readonly verbatim: boolean;
  /** The level the `level` option or `slow` gave the line (undefined: the status's default). */
  declare level: string | undefined;
  /** `true` when the request was slow (the `slow` option). */
  declare slow: true | undefined;
  /** The share of such requests kept, on a line of a sampling logger. */
  declare rate: number | undefined;
  /** Whether `duration` was read (a duration may be undefined). */
  declare durationRead: boolean;
  /** Milliseconds from arrival to the line, read once: `msg` and the duration fields agree. */
  declare duration: number | undefined;
  /** The line's time (ms since the epoch), read once: a line and its record agree; NaN unread. */
  declare time: number;

  constructor(exchange: Exchange | undefined, verbatim: boolean) {
    this.verbatim = verbatim;
    this.renew(exchange);
  }

  /** Makes this object the context of a new line about `exchange` (see `LineSlot`). */
  renew(exchange: Exchange | undefined): this {
    this.exchange = exchange;
    this.level = undefined;
    this.slow = undefined;
    this.rate = undefined;
    this.durationRead = false;
    this.duration = undefined;
    this.time = Number.NaN;
    return this;
  }
}

/**
 * One logger's `Line`, made anew for each of its lines without an allocation per line (one
 * object per request was measurable on the `json` line, callgrind): the object is taken while
 * a line is made and given back after, so a line made inside another of the same logger (a
 * custom token could) gets one of its own.
 */
export class LineSlot {
  declare private spare: Line | undefined;
  declare private readonly verbatim: boolean;

  constructor(verbatim: boolean) {
    this.spare = undefined;
    this.verbatim = verbatim;
  }

  take(exchange: Exchange): Line {
    const spare = this.spare;
    if (spare === undefined) return new Line(exchange, this.verbatim);
    this.spare = undefined;
    return spare.renew(exchange);
  }

  giveBack(line: Line): void {
    line.exchange = undefined;
    this.spare = line;
  }
}

let current: Line | undefined;

/**
 * Makes `line` the one tokens read until `leaveLine` is called with what this returned (lines
 * do not nest, but a custom token could in theory make one: the previous one is restored).
 */
export function enterLine(line: Line): Line | undefined {
  const previous = current;
  current = line;
  return previous;
}

export function leaveLine(previous: Line | undefined): void {
  current = previous;
}

/** The line being made, if any. */
export function currentLine(): Line | undefined {
  return current;
}

/** The exchange of the line being made, if any. */
export function lineExchange(): Exchange | undefined {
  return current?.exchange;
}

/** The exchange of the line being made, if it is about this request and response. */
export function exchangeOfLine(req: LogRequest, res: LogResponse): Exchange | undefined {
  const exchange = current?.exchange;
  return exchange !== undefined && exchange.req === req && exchange.res === res
    ? exchange
    : undefined;
}

/** The exchange of the line being made, if it is about this request. */
export function arrivalOf(req: LogRequest): Exchange | undefined {
  const exchange = current?.exchange;
  return exchange !== undefined && exchange.req === req ? exchange : undefined;
}

/**
 * `fn(a, b, c)` inside a line of its own when no line is being made: a JSON format called by
 * the application itself still reads its time and duration once.
 */
export function inOwnLine<A, B, C, T>(fn: (a: A, b: B, c: C) => T, a: A, b: B, c: C): T {
  if (current !== undefined) return fn(a, b, c);
  const previous = enterLine(new Line(undefined, false));
  try {
    return fn(a, b, c);
  } finally {
    leaveLine(previous);
  }
}
