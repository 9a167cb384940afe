// The targeted mutants `npm run mutate` applies (see scripts/mutate.mjs). Each takes away or
// bends one defence or documented behaviour of src/parsers or src/logger; the tests guarding
// it must then fail. `find` must occur exactly once in `file`; update it when the code moves.
// `tests`: path substrings of the test files to run, most telling first (scripts/run-tests.mjs
// runs them in that order).
// `survives`: the reason a mutant may survive (an equivalent mutant, say), when it may.

const PARSERS = ['test/parsers/', 'test/unit/parsers'];
const LOGGER = ['test/logger/', 'test/unit/logger'];
const READ = 'src/parsers/read-body.ts';
const TIMING = 'src/logger/core/timing.ts';
const LOG = 'src/logger/index.ts';

// The test files most likely to kill a mutant, by the word its name starts with: they run
// before the rest of the family's tests.
const PARSERS_FIRST = {
  abort: ['test/parsers/malformed-requests'],
  drain: ['test/parsers/draining', 'test/parsers/limits'],
  stall: ['test/parsers/default-error-handlers', 'test/parsers/draining'],
  h2: ['test/parsers/protocols'],
  limit: ['test/parsers/limits'],
  next: ['test/parsers/malformed-requests', 'test/parsers/errors', 'test/parsers/pipeline'],
  body: ['test/parsers/limits', 'test/parsers/pipeline'],
  type: ['test/parsers/type-option'],
  charset: ['test/parsers/errors', 'test/unit/parsers-charset', 'test/parsers/text'],
  inflate: ['test/parsers/encodings'],
  size: ['test/parsers/malformed-requests'],
  stream: ['test/parsers/malformed-requests'],
  listeners: ['test/parsers/pipeline'],
  verify: ['test/parsers/verify'],
  json: ['test/parsers/prototype-poisoning', 'test/parsers/json'],
  parse: ['test/parsers/json-parse-option'],
  schema: ['test/parsers/schema'],
  read: ['test/parsers/read'],
  urlencoded: ['test/parsers/urlencoded', 'test/parsers/attacks'],
  bytes: ['test/unit/parsers-bytes', 'test/parsers/options'],
  options: ['test/parsers/options'],
};
const LOGGER_FIRST = {
  timing: ['test/logger/several-loggers', 'test/logger/tokens-timing', 'test/logger/remote-addr'],
  escape: ['test/unit/logger-escape', 'test/logger/escaping'],
  predefined: ['test/logger/aborted-requests', 'test/logger/predefined-formats'],
  stream: ['test/logger/failures', 'test/logger/stream'],
  done: [
    'test/logger/aborted-requests',
    'test/logger/protocols',
    'test/logger/several-loggers',
    'test/logger/listeners',
  ],
  skip: ['test/logger/failures'],
  format: ['test/logger/failures'],
  tokens: ['test/logger/custom-tokens', 'test/logger/failures'],
  'basic-auth': ['test/unit/logger-basic-auth', 'test/logger/remote-user'],
  redact: ['test/logger/redaction-urls', 'test/logger/redaction'],
  query: ['test/hostile/query-readings', 'test/logger/redaction-urls'],
  url: ['test/hostile/url-secrets', 'test/logger/redaction-urls'],
  otel: ['test/hostile/otel-records', 'test/logger/otel-records'],
  failure: ['test/logger/error-fields'],
  'request-id': ['test/logger/request-id'],
  objects: ['test/logger/escaping', 'test/hostile/properties-logger'],
};

/** A family's mutant maker: its test files, the most telling ones for the mutant first. */
const family = (first, all) => (name, file, find, replace) => ({
  name,
  file,
  find,
  replace,
  tests: [...(first[name.split(':')[0]] ?? []), ...all],
});
const parsers = family(PARSERS_FIRST, PARSERS);
const logger = family(LOGGER_FIRST, LOGGER);

export const mutants = [
  // The four that once survived every test.
  parsers(
    'abort: close without complete is ignored',
    READ,
    'if (!this.req.complete) this.onAborted();',
    '',
  ),
  parsers('abort: no close listener', READ, "    req.on('close', this.onClose);", ''),
  parsers('drain: no byte cap', READ, 'if (discarded > DRAIN_LIMIT_BYTES) giveUp();', ''),
  parsers(
    'limit: streaming count one byte late',
    READ,
    'if (this.received > limit) {',
    'if (this.received > limit + 1) {',
  ),
  logger(
    'timing: the first logger keeps its start',
    TIMING,
    '  sharedArrivals.set(req, at);',
    '  if (!sharedArrivals.has(req)) sharedArrivals.set(req, at);',
  ),

  // The read pipeline.
  parsers(
    'limit: streaming count one byte early',
    READ,
    'if (this.received > limit) {',
    'if (this.received >= limit) {',
  ),
  parsers('limit: no streaming count', READ, 'if (this.received > limit) {', 'if (false) {'),
  parsers(
    'limit: Content-Length not checked first',
    READ,
    'if (length === null || length <= limit) return null;',
    'if (true) return null;',
  ),
  parsers(
    'limit: Content-Length of exactly the limit refused',
    READ,
    'if (length === null || length <= limit) return null;',
    'if (length === null || length < limit) return null;',
  ),
  parsers(
    'drain: a huge Content-Length is waited for',
    READ,
    'if (declared - this.consumed > DRAIN_LIMIT_BYTES) {',
    'if (false) {',
  ),
  parsers(
    'drain: no time bound',
    READ,
    'const timer = setTimeout(giveUp, DRAIN_LIMIT_MS);',
    'const timer = setTimeout(giveUp, 60_000);',
  ),
  parsers(
    'drain: nothing read off after an error',
    READ,
    'this.drain(() => this.done(err));',
    'this.done(err);',
  ),
  parsers(
    'drain: connection kept after giving up',
    READ,
    "    res.shouldKeepAlive = false;\n    if (!res.headersSent) res.setHeader('Connection', 'close');",
    '',
  ),
  parsers(
    'stall: a request given up on is not ended',
    READ,
    '    process.nextTick(endMessage, req);',
    '',
  ),
  parsers(
    'stall: the request is ended inside the parsing of its packet',
    READ,
    '    process.nextTick(endMessage, req);',
    '    endMessage(req);',
  ),
  parsers('stall: the ended request is not complete', READ, '  req.complete = true;\n', ''),
  parsers(
    "h2: a reset stream is told by 'error'",
    READ,
    "return req.httpVersionMajor === 2 ? 'aborted' : 'error';",
    "return 'error';",
  ),
  parsers(
    'h2: a body without Content-Length is not read',
    READ,
    '(req.httpVersionMajor === 2 && !(req as Http2Request).stream.endAfterHeaders)',
    'false',
  ),
  parsers(
    'h2: a body ended with the headers is waited for',
    READ,
    '(req.httpVersionMajor === 2 && !(req as Http2Request).stream.endAfterHeaders)',
    'req.httpVersionMajor === 2',
  ),
  parsers(
    'h2: the stream stays open after giving up',
    READ,
    "    else stream.once('finish', closeStream);",
    '',
  ),
  parsers(
    'h2: the stream is closed before its response',
    READ,
    "    if (stream.writableFinished) stream.close();\n    else stream.once('finish', closeStream);",
    '    stream.close();',
  ),
  parsers(
    'h2: Connection: close on HTTP/2',
    READ,
    '  if (req.httpVersionMajor === 2) {\n    const stream = (req as Http2Request).stream;',
    '  if (req.httpVersionMajor === 0) {\n    const stream = (req as Http2Request).stream;',
  ),
  {
    ...parsers(
      'next: a second failure calls next again',
      READ,
      '    if (this.settled) return;\n    this.settled = true;\n    discard(',
      '    this.settled = true;\n    discard(',
    ),
    survives:
      'equivalent: fail() is reached once per request: start() refuses before any listener is ' +
      'attached, stop() removes every listener first (cleanup), and finish() and parse() run ' +
      "only after onEnd's cleanup; the settled guard is defence in depth no request can reach",
  },
  parsers(
    'next: a finished request is read again',
    READ,
    '    if (isFinished(req)) {\n      next();',
    '    if (false) {\n      next();',
  ),
  parsers(
    'body: Transfer-Encoding alone is no body',
    READ,
    "req.headers['transfer-encoding'] !== undefined ||",
    '',
  ),
  parsers('type: a non-matching type is parsed', READ, 'if (!lastMatched) {', 'if (false) {'),
  parsers(
    'charset: the parser allow-list is ignored',
    READ,
    'if (!this.format.charsets(charset)) return',
    'if (false) return',
  ),
  parsers(
    'charset: an unknown charset is decoded anyway',
    READ,
    'if (!charsetExists(charset)) {',
    'if (false) {',
  ),
  parsers(
    'inflate: inflate false is ignored',
    READ,
    'if (!this.options.inflate) {',
    'if (false) {',
  ),
  parsers(
    'size: a short body is accepted',
    READ,
    'if (length !== null && received !== length) {',
    'if (false) {',
  ),
  parsers(
    'stream: an encoding set on req is ignored',
    READ,
    'if (this.req.readableEncoding !== null) return',
    'if (false) return',
  ),
  parsers(
    'listeners: close listener left behind',
    READ,
    "    req.removeListener('close', this.onClose);",
    '',
  ),
  parsers(
    'inflate: no error listener on the decompressor',
    READ,
    "    decompressor.on('error', this.onInflateError);",
    '',
  ),
  parsers(
    'verify: a thrown status is not kept',
    READ,
    'const status = validStatus(own.status || own.statusCode || fallback) ?? 500;',
    'const status = fallback;',
  ),

  // JSON.
  parsers(
    'json: strict mode off',
    'src/parsers/json.ts',
    "if (strict && text[0] !== '{' && text[0] !== '[') {",
    'if (false) {',
  ),
  parsers(
    'json: constructor keys not looked for',
    'src/parsers/json.ts',
    'const PROTOTYPE_NAME = /__proto__|constructor/;',
    'const PROTOTYPE_NAME = /__proto__/;',
  ),
  parsers(
    'json: escaped prototype keys not looked for',
    'src/parsers/json.ts',
    "return text.includes('\\\\u') && ESCAPED_NAME_CHAR.test(text);",
    'return false;',
  ),
  parsers(
    'json: constructor.prototype allowed',
    'src/parsers/json.ts',
    "return hasOwn.call(value, 'prototype') ? 'constructor.prototype' : null;",
    'return null;',
  ),
  parsers(
    'json: nested objects not walked',
    'src/parsers/json.ts',
    "if (typeof child === 'object' && child !== null) pending.push(child);",
    '',
  ),
  parsers(
    'json: a reviver sees prototype keys',
    'src/parsers/json.ts',
    "    if (action === 'error') throw forbidden(text, found);\n    return undefined;",
    '    return Reflect.apply(reviver, this, [key, value, ...context]);',
  ),
  parsers(
    'parse: what the application parses is not walked',
    'src/parsers/json.ts',
    "return action === 'ignore' ? value : guardParsed(value, text, action);",
    'return value;',
  ),
  parsers(
    'parse: a prototype set by a __proto__ key is allowed',
    'src/parsers/json.ts',
    'if (proto !== null && proto !== Object.prototype && proto !== Array.prototype) {',
    'if (false) {',
  ),
  parsers(
    'parse: allowed with a reviver, which is then dropped',
    'src/parsers/options.ts',
    'if (parse !== null && reviver !== undefined) {',
    'if (false) {',
  ),

  // Schemas, async verify and the promise form.
  parsers(
    'schema: the rejected value stays in the message',
    'src/parsers/schema.ts',
    'if (form.text.length > 0 && cut.includes(form.text)) cut = cutOut(cut, form);',
    'if (form.text.length > 0 && cut.includes(form.text)) cut = cut.trim();',
  ),
  parsers(
    'schema: a path segment kept whole',
    'src/parsers/schema.ts',
    '      ? (segment as StandardSchemaV1.PathSegment).key',
    '      ? segment',
  ),
  parsers(
    'schema: every issue kept',
    'src/parsers/schema.ts',
    'for (let i = 0; i < count && i < MAX_ISSUES; i++)',
    'for (let i = 0; i < count; i++)',
  ),
  parsers(
    'schema: a long message kept whole',
    'src/parsers/schema.ts',
    'message: message.length > MAX_MESSAGE ?',
    'message: false ?',
  ),
  parsers(
    'schema: a promise waited for without a bound',
    READ,
    '      this.fail(expired());\n    }, timeout);',
    '      this.fail(expired());\n    }, 2 ** 31 - 1);',
  ),
  parsers(
    'verify: a returned promise not awaited',
    READ,
    '      if (isThenable(result)) {\n        const timeout = options.verifyTimeout;',
    '      if (false) {\n        const timeout = options.verifyTimeout;',
  ),
  parsers(
    'read: a body read in part is read again',
    READ,
    'if (req.readableDidRead || req.readableEnded || req.upgrade) {',
    'if (req.readableEnded || req.upgrade) {',
  ),
  parsers(
    'read: any Content-Type is read',
    READ,
    '    if (matched) reader.start(contentType);',
    '    if (true) reader.start(contentType);',
  ),

  // Forms.
  parsers(
    'urlencoded: parameterLimit one late',
    'src/parsers/urlencoded.ts',
    'if (count > limit) return undefined;',
    'if (count > limit + 1) return undefined;',
  ),
  parsers(
    'urlencoded: depth past the limit allowed',
    'src/parsers/urlencoded.ts',
    'strictDepth: true,',
    'strictDepth: false,',
  ),
  parsers(
    'urlencoded: a depth error is not a 400',
    'src/parsers/urlencoded.ts',
    'if (err instanceof RangeError) {',
    'if (false) {',
  ),

  // Charsets, sizes, options.
  parsers(
    'charset: json takes any charset (utf-7)',
    'src/parsers/charset.ts',
    '(charset) => UNICODE.has(charset);',
    '() => true;',
  ),
  parsers(
    'charset: forms take any charset',
    'src/parsers/charset.ts',
    "charset === 'utf-8' || charset === 'iso-8859-1';",
    'true;',
  ),
  parsers(
    'charset: the BOM is kept',
    'src/parsers/charset.ts',
    'return text.charCodeAt(0) === BOM ? text.slice(1) : text;',
    'return text;',
  ),
  parsers(
    'bytes: a typo is a size',
    'src/parsers/bytes.ts',
    'if (Number.isNaN(amount)) return null;',
    '',
  ),
  parsers(
    'options: an invalid limit is accepted',
    'src/parsers/options.ts',
    'if (limit === null) throw',
    'if (false) throw',
  ),
  parsers(
    'options: parameterLimit 0 accepted',
    'src/parsers/options.ts',
    'parameterLimit < 1) {',
    'parameterLimit < 0) {',
  ),

  // The logger.
  logger(
    'escape: U+2028 and U+2029 pass the fast check',
    'src/logger/core/escape.ts',
    'const UNSAFE = /[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029"\\\\]/;',
    'const UNSAFE = /[\\u0000-\\u001f\\u007f-\\u009f"\\\\]/;',
  ),
  logger(
    'escape: C1 controls kept',
    'src/logger/core/escape.ts',
    'const UNSAFE_ALL = /[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029"\\\\]/g;',
    'const UNSAFE_ALL = /[\\u0000-\\u001f\\u007f\\u2028\\u2029"\\\\]/g;',
  ),
  logger('escape: quotes kept', 'src/logger/core/escape.ts', `'"': '\\\\"',`, `'"': '"',`),
  logger(
    'escape: a quote in a short value passes the loop',
    'src/logger/core/escape.ts',
    'if (c < 0x20 || c === 0x22 || c === 0x5c) return true;',
    'if (c < 0x20 || c === 0x5c) return true;',
  ),
  logger(
    'predefined: a status the application set is written unescaped',
    'src/logger/text/predefined-lines.ts',
    ': text(statusToken(req, res));',
    ": String(statusToken(req, res) ?? '-');",
  ),
  logger(
    'escape: DEL and C1 controls in a short value pass the loop',
    'src/logger/core/escape.ts',
    'if (c >= 0x7f && (c <= 0x9f || c === 0x2028 || c === 0x2029)) return true;',
    'if (c === 0x2028 || c === 0x2029) return true;',
  ),
  logger(
    'stream: an error event is not caught',
    'src/logger/core/stream.ts',
    'if (guarded.has(stream) || !isEmitter(stream)) return;',
    'return;',
  ),
  logger(
    'done: an aborted request is not logged',
    TIMING,
    "    res.on('close', done);\n    return;",
    "    res.on('finish', done);\n    return;",
  ),
  logger('done: a second close writes a second line', LOG, '    if (closed) return;\n', ''),
  logger(
    'done: an abandoned request is logged before the application answers',
    LOG,
    '    else abandon(exchange, line);',
    '    else line(exchange);',
  ),
  logger(
    'done: one close listener per logger on a response',
    TIMING,
    '  if (loggersMade < 2) {\n    res.on(',
    '  if (true) {\n    res.on(',
  ),
  logger('skip: a throwing skip throws', LOG, '      skipFailed(err);', '      throw err;'),
  logger(
    'format: a throwing format throws',
    LOG,
    '        formatFailed(err);\n        return;',
    '        throw err;',
  ),
  logger(
    'stream: a throwing write throws',
    LOG,
    '      writeFailed(err);\n    }\n  }',
    '      throw err;\n    }\n  }',
  ),
  logger(
    'timing: the head is recorded every time',
    TIMING,
    'if (!exchange.headWritten) {',
    'if (true) {',
  ),
  logger(
    'timing: req.ip is not preferred',
    LOG,
    'needs.address || any ? frameworkIp(req) || socketAddress(req) : undefined',
    'needs.address || any ? socketAddress(req) : undefined',
  ),
  logger(
    'tokens: an unknown token throws',
    'src/logger/text/compile.ts',
    '  if (fn === undefined) {\n    // morgan throws',
    '  if (fn === undefined) {\n    throw new Error(part.name);\n    // morgan throws',
  ),
  logger(
    'format: a predefined line ignores a replaced built-in token',
    'src/logger/text/predefined-lines.ts',
    '    if (!allBuiltin) return compiled(tokens, req, res);\n',
    '',
  ),
  logger(
    'format: a built-in token that throws loses the predefined line',
    'src/logger/text/predefined-lines.ts',
    '    } catch {\n      return compiled(tokens, req, res);\n    }',
    '    } catch (err) {\n      throw err;\n    }',
  ),
  logger(
    'redact: :url written as sent',
    'src/logger/core/url-parts.ts',
    'return url === undefined ? url : redactUrl(policy, url);',
    'return url;',
  ),
  logger(
    'redact: text lines write URLs as sent',
    'src/logger/core/redact.ts',
    '? escapeLogField(redactUrl(policy, url)) : url;',
    '? escapeLogField(url) : url;',
  ),
  logger(
    'redact: :referrer written as sent',
    'src/logger/core/tokens.ts',
    'return value === undefined ? value : redactUrl(policy, value);',
    'return value;',
  ),
  logger(
    'redact: bracketed names not masked',
    'src/logger/core/redact.ts',
    "  if (!name.includes('[')) return false;",
    '  return false;',
  ),
  logger(
    'redact: userinfo kept',
    'src/logger/core/redact.ts',
    "  if (url.indexOf('@') === -1) return url;",
    '  return url;',
  ),
  logger(
    'redact: the fragment of Location kept',
    'src/logger/core/redact.ts',
    '  if (!policy.urls || hash === -1 || hash === masked.length - 1) return masked;',
    '  return masked;',
  ),
  logger(
    "query: qs's key end at ']=' not read",
    'src/logger/core/redact.ts',
    '  if (end > eq && isListedKey(policy, pair.slice(0, end))) {',
    '  if (false) {',
  ),
  logger(
    "query: '%5D=' not read as ']='",
    'src/logger/core/redact.ts',
    'const BRACKET_EQUALS = /(?:\\]|%5D)=/i;',
    'const BRACKET_EQUALS = /\\]=/;',
  ),
  logger(
    'query: a malformed key compared with its brackets encoded',
    'src/logger/core/redact.ts',
    "    return spaced.replace(/%5B/gi, '[').replace(/%5D/gi, ']').toLowerCase();",
    '    return spaced.toLowerCase();',
  ),
  logger(
    "url: ';' separates no parameter",
    'src/logger/core/redact.ts',
    'const QUERY_SEPARATORS = /(;)/;',
    'const QUERY_SEPARATORS = /($^)/;',
  ),
  logger(
    'url: the parameters of a fragment kept',
    'src/logger/core/redact.ts',
    '  const maskedFragment = maskParameters(policy, fragment, FRAGMENT_SEPARATORS);',
    '  const maskedFragment = fragment;',
  ),
  logger(
    'url: a fragment without a query not searched',
    'src/logger/core/redact.ts',
    "  if (start === -1) start = target.indexOf('#');",
    '',
  ),
  logger(
    "url: a fragment's route query kept",
    'src/logger/core/redact.ts',
    'const FRAGMENT_SEPARATORS = /([;?#])/;',
    'const FRAGMENT_SEPARATORS = /([;#])/;',
  ),
  logger(
    'url: protocol-relative userinfo kept',
    'src/logger/core/redact.ts',
    '  return second !== SLASH && second !== BACKSLASH;',
    '  return true;',
  ),
  logger(
    'url: backslashes not read as slashes',
    'src/logger/core/redact.ts',
    'const AUTHORITY_START = /^(?:(?:https?|wss?|ftp):[/\\\\]*|(?:[A-Za-z][A-Za-z0-9+.-]*:)?[/\\\\]{2})/i;',
    'const AUTHORITY_START = /^(?:(?:https?|wss?|ftp):\\/*|(?:[A-Za-z][A-Za-z0-9+.-]*:)?\\/{2})/i;',
  ),
  logger(
    'url: a special scheme needs its slashes',
    'src/logger/core/redact.ts',
    '(?:https?|wss?|ftp):[/\\\\]*|',
    '(?:https?|wss?|ftp):[/\\\\]{2}|',
  ),
  logger(
    'url: Content-Location written as sent',
    'src/logger/core/redact.ts',
    "  'content-location',\n",
    '',
  ),
  logger('url: Refresh written as sent', 'src/logger/core/redact.ts', "  'refresh',\n]);", ']);'),
  logger(
    'otel: control characters kept in attributes',
    'src/logger/otel/records.ts',
    "typeof value === 'string' ? escapeControls(value) : (value as number | boolean);",
    'value as string | number | boolean;',
  ),
  logger(
    'otel: control characters kept in the body',
    'src/logger/otel/records.ts',
    "body: escapeControls(lineIsBody && typeof line === 'string' ? line : String(fields.msg)),",
    "body: lineIsBody && typeof line === 'string' ? line : String(fields.msg),",
  ),
  logger(
    'redact: a list replaces the defaults',
    'src/logger/core/redact.ts',
    '  return replaced ? list : [...defaults, ...list];',
    '  return list;',
  ),
  logger(
    'redact: an unknown key is ignored',
    'src/logger/core/redact.ts',
    '    if (!REDACT_KEYS.has(key)) {',
    '    if (false) {',
  ),
  logger(
    "redact: a wrapped JSON format ignores its logger's policy",
    'src/logger/json/format.ts',
    '    return policy === undefined || policy === DEFAULT_POLICY\n',
    '    return true\n',
  ),
  logger(
    'objects: arrays and objects reach format functions raw',
    'src/logger/core/token-registry.ts',
    '      return escapeLogValue(value) as TokenValue;',
    "      return (typeof value === 'string' ? escapeLogValue(value) : value) as TokenValue;",
  ),
  logger(
    'objects: keys kept raw',
    'src/logger/core/escape.ts',
    '    Object.defineProperty(copy, escapeLogField(key), {',
    '    Object.defineProperty(copy, key, {',
  ),
  logger(
    'objects: an escaped copy escaped again by a format string',
    'src/logger/text/compile.ts',
    'value !== null && !isEscapedCopy(value)) ||',
    'value !== null) ||',
  ),
  logger(
    'failure: a JSON parse message written as it is',
    'src/logger/core/failure.ts',
    "  if (type === 'entity.parse.failed') return parseFailureMessage(err);\n",
    '',
  ),
  logger(
    "failure: a parser's error not recorded",
    READ,
    '    recordFailure(this.req, err); // for the logger',
    '    // for the logger',
  ),
  logger(
    'request-id: a slash accepted',
    'src/logger/core/request-id.ts',
    '[A-Za-z0-9._:=+@-]{1,128}$/;',
    '[A-Za-z0-9._:=+/@-]{1,128}$/;',
  ),
  logger(
    'request-id: two dots accepted',
    'src/logger/core/request-id.ts',
    '/^(?!\\.)(?!.*\\.\\.)[',
    '/^(?!\\.)[',
  ),
  logger(
    'basic-auth: a password with a line break is accepted',
    'src/logger/core/basic-auth.ts',
    'const USER_PASS = /^([^:]*):(.*)$/;',
    'const USER_PASS = /^([^:]*):([^]*)$/;',
  ),
];
