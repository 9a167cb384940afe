// The format registry (named formats, separate from the tokens) and the predefined formats,
// with exactly the spec's strings.

import { statusColour } from './core/status-colour.js';

export { colourAllowed } from './core/status-colour.js';

import { jsonFormat } from './json/format.js';
import { jsonPresets } from './json/presets.js';
import { compile, declareTokenNames, tokenNamesOf } from './text/compile.js';
import { directFormat } from './text/predefined-lines.js';
import type { FormatFn, LogRequest, LogResponse, PredefinedFormat, Tokens } from './types.js';

const formatRegistry = new Map<string, FormatFn<LogRequest, LogResponse>>();

/** Registers (or replaces) a named format; a string is compiled now, once. */
export function defineFormat(
  name: string,
  format: string | FormatFn<LogRequest, LogResponse>,
): void {
  formatRegistry.set(name, typeof format === 'string' ? compile(format) : format);
}

/** The registered format of that name, if any. */
export function findFormat(name: string): FormatFn<LogRequest, LogResponse> | undefined {
  return formatRegistry.get(name);
}

const DEV_PLAIN = ':method :url :status :response-time ms - :res[content-length]';

// One compiled line per colour, built once. The escape sequences are literal text of the
// format, so they are written as they are (only token values are escaped).
const devByColour = new Map<number, FormatFn<LogRequest, LogResponse>>(
  [0, 31, 32, 33, 36].map((colour) => {
    const sgr = `\x1b[${colour}m`;
    const format = directFormat(
      `\x1b[0m:method :url ${sgr}:status\x1b[0m :response-time ms - :res[content-length]\x1b[0m`,
    );
    return [colour, format];
  }),
);

/** The coloured `dev` format (the line morgan 1.12.1 writes, byte for byte). */
export const devColoured: FormatFn<LogRequest, LogResponse> = function dev(
  tokens: Tokens,
  req: LogRequest,
  res: LogResponse,
) {
  const format = devByColour.get(statusColour(res)) as FormatFn<LogRequest, LogResponse>;
  return format(tokens, req, res);
};

/** `dev` without escape sequences, used when NO_COLOR is set to a non-empty value. */
export const devPlain: FormatFn<LogRequest, LogResponse> = directFormat(DEV_PLAIN);

// The coloured lines read the same tokens as the plain one: the logger then records only what
// they need (no remote address) rather than everything a format function might read.
declareTokenNames(devColoured, tokenNamesOf(devPlain) ?? []);

const PREDEFINED: Readonly<Record<PredefinedFormat, string | FormatFn<LogRequest, LogResponse>>> = {
  combined: directFormat(
    ':remote-addr - :remote-user [:date[clf]] ":method :url HTTP/:http-version" :status :res[content-length] ":referrer" ":user-agent"',
  ),
  common: directFormat(
    ':remote-addr - :remote-user [:date[clf]] ":method :url HTTP/:http-version" :status :res[content-length]',
  ),
  dev: devColoured,
  short: directFormat(
    ':remote-addr :remote-user :method :url HTTP/:http-version :status :res[content-length] - :response-time ms',
  ),
  tiny: directFormat(':method :url :status :res[content-length] - :response-time ms'),
  json: jsonFormat(jsonPresets.json),
  ecs: jsonFormat(jsonPresets.ecs),
};

for (const [name, format] of Object.entries(PREDEFINED)) defineFormat(name, format);

/** Whether `format` is the predefined `ecs` format (its arrival lines and body field are ECS's). */
export function isEcsFormat(format: FormatFn<LogRequest, LogResponse>): boolean {
  return format === PREDEFINED.ecs;
}
