// The logger never throws into the server once it is running: a failing custom token, format
// function, `skip` or stream is reported as a process warning (once, so a failure on every
// request does not flood stderr) and the request goes on.

/** The `type` of every warning the logger emits, for `process.on('warning')` filters. */
const WARNING_TYPE = 'HttpwareLoggerWarning';

export type WarningCode =
  | 'HTTPWARE_LOGGER_TOKEN'
  | 'HTTPWARE_LOGGER_FIELD'
  | 'HTTPWARE_LOGGER_UNKNOWN_TOKEN'
  | 'HTTPWARE_LOGGER_FORMAT'
  | 'HTTPWARE_LOGGER_SKIP'
  | 'HTTPWARE_LOGGER_ADDRESS'
  | 'HTTPWARE_LOGGER_PROXY'
  | 'HTTPWARE_LOGGER_LEVEL'
  | 'HTTPWARE_LOGGER_STREAM'
  | 'HTTPWARE_LOGGER_DESTINATION'
  | 'HTTPWARE_LOGGER_DROPPED'
  | 'HTTPWARE_LOGGER_OTEL_API'
  | 'HTTPWARE_LOGGER_OTEL'
  | 'HTTPWARE_LOGGER_OTEL_PROVIDER'
  | 'HTTPWARE_LOGGER_METRICS'
  | 'HTTPWARE_LOGGER_METRICS_ROUTES';

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

export function warn(code: WarningCode, message: string, err?: unknown): void {
  const detail = err === undefined ? message : `${message}: ${describe(err)}`;
  process.emitWarning(detail, { type: WARNING_TYPE, code });
}

/** A warning that is emitted the first time only. */
export function onceWarning(code: WarningCode, message: string): (err?: unknown) => void {
  let warned = false;
  return (err) => {
    if (warned) return;
    warned = true;
    warn(code, message, err);
  };
}

const warnedKeys = new Set<string>();

/** A warning emitted once per key for the whole process (e.g. per token name). */
export function warnOncePerKey(
  code: WarningCode,
  key: string,
  message: string,
  err?: unknown,
): void {
  const full = `${code}\u0000${key}`;
  if (warnedKeys.has(full)) return;
  warnedKeys.add(full);
  warn(code, message, err);
}
