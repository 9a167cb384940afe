// The targeted mutants `npm run mutate` applies (see scripts/mutate.mjs). Each takes away or
// bends one defence or documented behaviour of src/parsers or src/logger; the tests guarding
// it must then fail. `find` must occur exactly once in `file`; update it when the code moves.
// `tests`: path substrings of the test files to run, most telling first (scripts/run-tests.mjs
// runs them in that order).
// `survives`: the reason a mutant may survive (an equivalent mutant, say), when it may.

const PARSERS = ['test/parsers/', 'test/unit/parsers'];
const LOGGER = ['test/logger/', 'test/unit/logger'];
const READ = 'src/parsers/read-body.ts';
const PIPELINE = 'src/parsers/pipeline.ts';
const WEB = 'src/parsers/web-body.ts';
const TIMING = 'src/logger/core/timing.ts';
const LOG = 'src/logger/index.ts';
const WRITER = 'src/logger/writer.ts';
const SCHEMA = 'src/parsers/schema.ts';
const EXIT = 'src/logger/destination/exit.ts';
const DESTINATION = 'src/logger/destination/destination.ts';

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
  'remote-user': ['test/hostile/api-key-user-name'],
  'body-bytes': [
    'test/hostile/response-body-bytes',
    'test/logger/body-bytes',
    'test/logger/json-format',
  ],
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
/** A mutant of a defence issue 30 asked for, killed in test/hostile/ (`tests` first). */
const hostile = (name, file, find, replace, tests) => ({ name, file, find, replace, tests });
const SUBMITTED = 'test/hostile/submitted-values';
const BOUNDS = 'test/hostile/schema-report-bounds';
const CALLBACKS = 'test/hostile/application-callbacks';
const PROPERTY = 'test/hostile/properties-schema-values';
const logger = family(LOGGER_FIRST, LOGGER);
/** A mutant whose defence is pinned in test/hostile: those files run first. */
const pinned = (mutant, ...files) => ({ ...mutant, tests: [...files, ...mutant.tests] });

export const mutants = [
  // The four that once survived every test.
  parsers(
    'abort: close without complete is ignored',
    READ,
    'if (!this.req.complete) this.aborted();',
    '',
  ),
  parsers('abort: no close listener', READ, '      this.connection.watch(this);', ''),
  parsers('drain: no byte cap', READ, 'if (discarded > DRAIN_LIMIT_BYTES) giveUp();', ''),
  parsers(
    'limit: streaming count one byte late',
    PIPELINE,
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
    PIPELINE,
    'if (this.received > limit) {',
    'if (this.received >= limit) {',
  ),
  parsers('limit: no streaming count', PIPELINE, 'if (this.received > limit) {', 'if (false) {'),
  parsers(
    'limit: Content-Length not checked first',
    PIPELINE,
    'if (length === null || length <= limit) return null;',
    'if (true) return null;',
  ),
  parsers(
    'limit: Content-Length of exactly the limit refused',
    PIPELINE,
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
    PIPELINE,
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
  {
    ...parsers(
      "h2: a reset stream is told by 'error'",
      READ,
      "      req.on('aborted', this.onStreamAborted);",
      "      req.on('error', this.onStreamAborted);",
    ),
    survives:
      "equivalent: node:http2 ends a reset stream's request as if its body were whole, and " +
      "onEnd's cutShort (wasReset: rstCode) tells the reset from a whole body; `aborted` only " +
      'tells it a tick sooner',
  },
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
      PIPELINE,
      '    if (this.settled) return;\n    this.settled = true;\n    if (this.decompressor',
      '    this.settled = true;\n    if (this.decompressor',
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
    PIPELINE,
    'if (!this.format.charsets(charset)) return',
    'if (false) return',
  ),
  parsers(
    'charset: an unknown charset is decoded anyway',
    PIPELINE,
    'if (!charsetExists(charset)) {',
    'if (false) {',
  ),
  parsers(
    'inflate: inflate false is ignored',
    PIPELINE,
    'if (!this.options.inflate) {',
    'if (false) {',
  ),
  parsers(
    'size: a short body is accepted',
    PIPELINE,
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
    'abort: a pipelined reader is not told its connection closed',
    READ,
    '    if (others !== null) for (const other of others) other.connectionClosed();',
    '',
  ),
  pinned(
    parsers(
      'listeners: a reader left watching its connection',
      READ,
      '    if (connection !== null) connection.unwatch(this);\n    else if',
      '    if (connection !== null) {\n    } else if',
    ),
    'test/hostile/memory',
  ),
  parsers(
    'inflate: no error listener on the decompressor',
    PIPELINE,
    "    decompressor.on('error', this.onInflateError);",
    '',
  ),
  parsers(
    'verify: a thrown status is not kept',
    PIPELINE,
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
    'schema: the rejected value stays in a validator message',
    SCHEMA,
    'const cut = form === null ? text : cutOut(text, form);',
    'const cut = text;',
  ),
  parsers(
    'schema: a path segment kept whole',
    SCHEMA,
    '      ? (segment as StandardSchemaV1.PathSegment).key',
    '      ? segment',
  ),
  parsers(
    'schema: every issue kept',
    SCHEMA,
    'for (let i = 0; i < count && i < MAX_ISSUES; i++)',
    'for (let i = 0; i < count; i++)',
  ),
  parsers(
    'schema: a long message kept whole',
    SCHEMA,
    'return { path, message: clean(shorter(cut, MAX_MESSAGE)) };',
    'return { path, message: clean(cut) };',
  ),
  parsers(
    'schema: a promise waited for without a bound',
    PIPELINE,
    '    this.timer = setTimeout(this.expire, timeout);',
    '    this.timer = setTimeout(this.expire, 2 ** 31 - 1);',
  ),
  parsers(
    'verify: a returned promise not awaited',
    PIPELINE,
    '      if (thenable) {\n        const timeout = options.verifyTimeout;',
    '      if (false) {\n        const timeout = options.verifyTimeout;',
  ),
  parsers('read: a body read in part is read again', READ, '    req.readableDidRead ||\n', ''),
  parsers(
    'read: any Content-Type is read',
    READ,
    '    if (matched) reader.start(contentType);',
    '    if (true) reader.start(contentType);',
  ),

  // No submitted value in a line, a record or the 422 (issue 30).
  hostile(
    "values: a parser's error logged with its own message",
    'src/logger/core/failure.ts',
    '    const text = logTextOf(err);\n',
    '    const text = undefined;\n',
    [SUBMITTED, 'test/logger/error-fields'],
  ),
  hostile(
    "values: a verify's error adopted without httpware's log text",
    PIPELINE,
    '  setLogText(err as object, LOG_TEXTS[type]);\n',
    '',
    [SUBMITTED, 'test/logger/error-fields'],
  ),
  hostile(
    'values: entity.validation.threw says what the schema threw',
    PIPELINE,
    "return createError('entity.validation.threw', {}, { cause: thrown });",
    "return createError('entity.validation.threw', {}, { message: 'the schema threw: ' + (thrown as Error)?.message, cause: thrown });",
    [SUBMITTED, PROPERTY],
  ),
  hostile(
    "values: an issue carries the validator's message by default",
    SCHEMA,
    '  if (prints === null) return { path, message: GENERIC_ISSUE };',
    '  if (prints === null) return { path, message: String((issue as { message?: unknown }).message) };',
    [SUBMITTED, PROPERTY],
  ),
  hostile(
    "values: the message tells the first issue's validator text",
    SCHEMA,
    "const where = first.path.length === 0 ? 'the body' : shorter(first.path.join('.'), MAX_MESSAGE);",
    'const where = first.message;',
    ['test/parsers/schema', SUBMITTED],
  ),
  hostile(
    "values: a verbatim logger's setting outlives its line",
    WRITER,
    '          verbatimMessages(previous);',
    '          verbatimMessages(true);',
    ['test/logger/error-fields'],
  ),
  hostile(
    "values: another parser's entity.verify.failed logged with verify's message",
    'src/logger/core/failure.ts',
    "    if (type === 'entity.verify.failed') return LOG_TEXTS[type];\n",
    '',
    [SUBMITTED],
  ),
  hostile(
    'read: an HTTP/2 stream reset before read taken for a body read',
    READ,
    '  if (req.httpVersionMajor === 2 && (req as { aborted?: unknown }).aborted === true) {\n    return abortedBefore(req);\n  }\n',
    '',
    ['test/hostile/read-lifecycle'],
  ),
  hostile(
    "bounds: the message's path kept whole",
    SCHEMA,
    "shorter(first.path.join('.'), MAX_MESSAGE)",
    "first.path.join('.')",
    [BOUNDS],
  ),
  hostile(
    'bounds: no byte budget for the issues',
    SCHEMA,
    '    if (bytes + size > MAX_ISSUES_BYTES) break;\n',
    '',
    [BOUNDS],
  ),
  hostile(
    "bounds: a key's control characters kept",
    SCHEMA,
    "  return text.replace(UNSAFE, '\\ufffd');",
    '  return text;',
    [BOUNDS],
  ),
  hostile(
    'bounds: a key kept whole',
    SCHEMA,
    "  return clean(shorter(typeof key === 'symbol' ? (key.description ?? '') : key, MAX_KEY));",
    "  return clean(typeof key === 'symbol' ? (key.description ?? '') : key);",
    [BOUNDS, 'test/parsers/schema'],
  ),
  hostile(
    'bounds: every segment of a path read',
    SCHEMA,
    "const shown = typeof length === 'number' ? Math.min(length, MAX_PATH) : 0;",
    "const shown = typeof length === 'number' ? length : 0;",
    [CALLBACKS],
  ),
  hostile(
    'bounds: an object at an issue path stringified',
    SCHEMA,
    '  return null;\n}\n\nconst QUOTES',
    "  return { text: JSON.stringify(value) ?? '', bare: true, json: undefined };\n}\n\nconst QUOTES",
    [BOUNDS],
  ),
  hostile(
    "bounds: a validator's message read for a path deeper than the report",
    SCHEMA,
    'if (deeper || text.length > MAX_VALIDATOR_MESSAGE)',
    'if (text.length > MAX_VALIDATOR_MESSAGE)',
    ['test/parsers/schema'],
  ),

  // A schema's or a verify's result that throws when read (issue 30).
  hostile(
    "contained: a schema result's then getter read outside the try",
    PIPELINE,
    "      result = schema.validate(input);\n      // The result is the application's object: a `then` getter that throws is the schema's.\n      thenable = isThenable(result);\n    } catch (thrown) {\n      this.fail(schemaThrew(thrown));\n      return;\n    }\n",
    '      result = schema.validate(input);\n    } catch (thrown) {\n      this.fail(schemaThrew(thrown));\n      return;\n    }\n    thenable = isThenable(result);\n',
    [CALLBACKS],
  ),
  hostile(
    "contained: a schema result's issues read outside the try",
    PIPELINE,
    '      this.fail(schemaThrew(thrown));\n      return;\n    }\n    if (failure === undefined) this.succeed(value);',
    '      throw thrown;\n    }\n    if (failure === undefined) this.succeed(value);',
    [CALLBACKS],
  ),
  hostile(
    "contained: a verify result's then getter read outside the try",
    PIPELINE,
    "        // A `then` getter that throws throws here: refused, as `await` would reject.\n        thenable = isThenable(result);\n      } catch (thrown) {\n        this.fail(adopt(thrown, 'entity.verify.failed', body));\n        return;\n      }\n",
    "      } catch (thrown) {\n        this.fail(adopt(thrown, 'entity.verify.failed', body));\n        return;\n      }\n      thenable = isThenable(result);\n",
    [CALLBACKS],
  ),
  hostile(
    "contained: a thrown error's throwing getter escapes adopt",
    PIPELINE,
    '    err = adopted(thrown, type, body);\n  } catch {\n',
    '    err = adopted(thrown, type, body);\n  } catch (e) {\n    throw e;\n',
    [CALLBACKS],
  ),

  // Forms.
  parsers(
    'urlencoded: parameterLimit one late',
    'src/parsers/urlencoded.ts',
    'if (count > limit) return undefined;',
    'if (count > limit + 1) return undefined;',
  ),
  parsers(
    'urlencoded: parameterLimit of a plain form one late',
    'src/parsers/urlencoded.ts',
    "if (++count > limit) throw createError('parameters.too.many', { body: text });",
    "if (++count > limit + 1) throw createError('parameters.too.many', { body: text });",
  ),
  parsers(
    'urlencoded: a plain form reads escaped brackets as text',
    'src/parsers/urlencoded.ts',
    'if (isEscapedBracket(text, i)) return undefined;',
    'if (false) return undefined;',
  ),
  pinned(
    parsers(
      'urlencoded: spaces replaced one match at a time',
      'src/parsers/urlencoded.ts',
      "  const bytes = Buffer.from(text, 'utf8');",
      "  if (text) return text.replace(/\\+/g, ' ');\n  const bytes = Buffer.from(text, 'utf8');",
    ),
    'test/hostile/attacks-parsers',
  ),
  parsers(
    'urlencoded: depth past the limit allowed',
    'src/parsers/urlencoded.ts',
    'strictDepth: true,',
    'strictDepth: false,',
  ),
  parsers(
    'urlencoded: a nested form built past the depth',
    'src/parsers/urlencoded.ts',
    'if (count > depth || count > SEGMENTS) return 0;',
    'if (count > SEGMENTS) return 0;',
  ),
  pinned(
    parsers(
      'urlencoded: a nested form built at any depth (recursion past the stack)',
      'src/parsers/urlencoded.ts',
      'if (count > depth || count > SEGMENTS) return 0;',
      'if (count > depth) return 0;',
    ),
    'test/hostile/attacks-parsers',
  ),
  parsers(
    'urlencoded: a nested form takes a __proto__ name',
    'src/parsers/urlencoded.ts',
    "if (name === '' || name === '__proto__') return 0;",
    "if (name === '') return 0;",
  ),
  parsers(
    'urlencoded: a nested form takes a __proto__ group',
    'src/parsers/urlencoded.ts',
    "if (content === '__proto__') return 0;",
    '',
  ),
  pinned(
    parsers(
      'urlencoded: a nested form keeps its last key after the request',
      'src/parsers/urlencoded.ts',
      '  segments.length = 0;\n',
      '',
    ),
    'test/hostile/memory',
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
  logger('skip: a throwing skip throws', WRITER, '      skipFailed(err);', '      throw err;'),
  logger(
    'format: a throwing format throws',
    WRITER,
    '        formatFailed(err);\n        return;',
    '        throw err;',
  ),
  logger(
    'stream: a throwing write throws',
    WRITER,
    '      writeFailed(err);\n    }\n  }',
    '      throw err;\n    }\n  }',
  ),
  logger(
    'timing: the head is recorded every time',
    TIMING,
    'if (!exchange.headWritten) {',
    'if (true) {',
  ),
  logger('timing: req.ip is not preferred', LOG, '        ? frameworkIp(req) ||\n', '        ? '),
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
    'redact: a name after a second ? not masked',
    'src/logger/core/redact.ts',
    '  if (name.charCodeAt(0) === QUESTION_MARK && policy.query.has(name.slice(1))) return true;',
    '',
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
    PIPELINE,
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
  logger(
    'remote-user: an API key given as the user name is written',
    'src/logger/core/basic-auth.ts',
    "blank(parts[2] as string) && looksLikeKey(user) && policy.headers.has('authorization')\n    ? MASK\n    : user;",
    'user;',
  ),
  logger(
    "remote-user: a person's name with no password taken for a key",
    'src/logger/core/basic-auth.ts',
    'blank(parts[2] as string) && looksLikeKey(user) && policy',
    "blank(parts[2] as string) && user !== '' && policy",
  ),
  logger(
    'remote-user: a key without a known prefix taken for a name',
    'src/logger/core/basic-auth.ts',
    'return KEY_PREFIX.test(user) || (user.length >= 20 && interleaved(user));',
    'return KEY_PREFIX.test(user);',
  ),
  logger(
    'remote-user: a short name with a key prefix taken for a key',
    'src/logger/core/basic-auth.ts',
    'if (user.length < 16 || !KEY_ALPHABET.test(user)) return false;',
    'if (!KEY_ALPHABET.test(user)) return false;',
  ),
  logger(
    'remote-user: a password of white space taken for a password',
    'src/logger/core/basic-auth.ts',
    "return password === '' || BLANK.test(password);",
    "return password === '';",
  ),
  logger(
    'remote-user: the key is masked whatever the redact option',
    'src/logger/core/basic-auth.ts',
    "blank(parts[2] as string) && looksLikeKey(user) && policy.headers.has('authorization')",
    'blank(parts[2] as string) && looksLikeKey(user)',
  ),
  logger(
    'body-bytes: strings counted in UTF-16 units',
    'src/logger/core/body-bytes.ts',
    "return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as never) : 'utf8');",
    'return chunk.length;',
  ),
  logger(
    'body-bytes: the chunk HTTP/2 end writes through write counted twice',
    'src/logger/core/body-bytes.ts',
    'if (meter.counting === false || meter.ending) {',
    'if (meter.counting === false) {',
  ),
  logger(
    'body-bytes: a write after the end counted',
    'src/logger/core/body-bytes.ts',
    '    // A write after the end sends nothing (Node reports it as an error).\n    const ended = this.writableEnded;',
    '    const ended = false;',
  ),
  logger(
    'body-bytes: the count of an unfinished response given',
    'src/logger/core/body-bytes.ts',
    'return isFinished(res) ? meter.bytes : undefined;',
    'return meter.bytes;',
  ),
  logger(
    'body-bytes: a response without a body given its announced length',
    'src/logger/core/body-bytes.ts',
    '  if (hasNoBody(req, res)) return 0;\n',
    '',
  ),
  logger(
    'body-bytes: a response that announced its length counted',
    'src/logger/core/body-bytes.ts',
    'meter.counting = announced === undefined;',
    'meter.counting = true;',
  ),
  logger(
    "json: a target's listed parameter passes the line's one test of the target",
    'src/logger/core/redact.ts',
    '(?:(?<=${marks})|${listedSource(names)})',
    '(?:(?<=${marks}))',
  ),
  pinned(
    logger(
      "json: a target's character to escape passes the line's one test of the target",
      'src/logger/core/redact.ts',
      '(?:(?<=${marks})|${listedSource(names)})',
      '(?:(?<=%)|${listedSource(names)})',
    ),
    'test/hostile/attacks-logger.test.ts',
  ),

  // Issue 30: the read lifecycle and contained faults.
  pinned(
    logger(
      "stream: an async write's rejection is left unhandled",
      'src/logger/core/stream.ts',
      "if (typeof then === 'function') then.call(result, undefined, onError);",
      '',
    ),
    'test/hostile/logger-faults',
  ),

  pinned(
    parsers(
      'read: a response already sent is read',
      READ,
      '    res?.writableEnded === true ||\n',
      '',
    ),
    'test/hostile/read-lifecycle',
  ),
  pinned(
    parsers(
      'read: a request node:http is discarding is read',
      READ,
      '    req.readableFlowing === true ||\n',
      '',
    ),
    'test/hostile/read-lifecycle',
  ),
  pinned(
    parsers(
      'read: a second read is not refused',
      READ,
      '    readsStarted.has(req)\n',
      '    false\n',
    ),
    'test/hostile/read-lifecycle',
  ),
  pinned(
    parsers(
      'read: the middleware reads a body after its response was sent',
      READ,
      '    if (res.writableEnded) {',
      '    if (false) {',
    ),
    'test/hostile/read-lifecycle',
  ),
  pinned(
    parsers(
      'abort: a connection closed after the response is not heard',
      READ,
      '    if (req.httpVersionMajor === 2 || !req.socket) {',
      '    if (true) {',
    ),
    'test/hostile/read-lifecycle',
  ),

  pinned(
    parsers(
      'h2: a stream reset after its response is read as a whole body',
      READ,
      '  return !stream.readableEnded || (stream.rstCode ?? 0) !== 0;',
      '  return false;',
    ),
    'test/hostile/read-lifecycle',
  ),
  pinned(
    parsers(
      'verify: a wait that ended keeps its continuations',
      PIPELINE,
      '    this.onValue = null;\n    this.onReason = null;\n',
      '',
    ),
    'test/hostile/memory',
  ),
  pinned(
    parsers(
      'verify: the chunks are kept beside the joined body',
      PIPELINE,
      '    this.chunks = [];\n    this.cleanup(true);',
      '    this.cleanup(true);',
    ),
    'test/hostile/memory',
  ),
  hostile(
    'fetch-address: CF-Connecting-IP trusted off workerd',
    'src/logger/fetch.ts',
    "  return onWorkerd ? address(request.headers.get('cf-connecting-ip')) : undefined;",
    "  return address(request.headers.get('cf-connecting-ip'));",
    ['test/hostile/fetch-remote-addr', 'test/web/'],
  ),
  hostile(
    'fetch-address: the header before what the runtime gave',
    'src/logger/fetch.ts',
    '  const ip = address((request as { ip?: unknown }).ip);',
    "  const ip = address(request.headers.get('cf-connecting-ip') ?? (request as { ip?: unknown }).ip);",
    ['test/hostile/fetch-remote-addr', 'test/web/'],
  ),
  hostile(
    'web: a reader cancelled in the tick of a read',
    WEB,
    '    cutoff ??= setTimeout(giveUp, DRAIN_LIMIT_MS);',
    '    giveUp();',
    ['test/hostile/web-adapters'],
  ),
  hostile(
    'web: a reader cancelled before the answer went out',
    WEB,
    '    cutoff ??= setTimeout(giveUp, DRAIN_LIMIT_MS);',
    '    cutoff ??= setTimeout(giveUp, 0);',
    ['test/hostile/web-adapters', 'test/web/plain-request'],
  ),
  hostile(
    'web: a body past its Content-Length read on',
    WEB,
    'if (this.declared !== null && this.taken > this.declared) {',
    'if (false) {',
    ['test/hostile/web-body-bounds'],
  ),
  hostile(
    'trust-proxy: the left-most entry instead of the first untrusted',
    'src/logger/core/proxy.ts',
    '      if (!trusts(address, hop)) break;',
    '      if (!trusts(address, hop) && hop > 0) {}',
    ['test/hostile/trust-proxy'],
  ),
  hostile(
    'trust-proxy: a malformed entry taken as it is',
    'src/logger/core/proxy.ts',
    '      if (next === undefined) break;\n      address = next;',
    '      address = next ?? entry;',
    ['test/hostile/trust-proxy'],
  ),
  hostile(
    'trust-proxy: short and hex IPv4 forms read as addresses',
    'src/logger/core/proxy.ts',
    '  return IPV4.test(node) ? node : undefined;',
    '  return /^[0-9a-fx.]+$/i.test(node) ? node : undefined;',
    ['test/hostile/trust-proxy'],
  ),
  hostile(
    'trust-proxy: both headers read',
    'src/logger/index.ts',
    '  const value = req.headers[proxy.header];',
    "  const value = req.headers[proxy.header] ?? req.headers['x-forwarded-for'];",
    ['test/hostile/trust-proxy'],
  ),
  hostile(
    'trust-proxy: a header trusted by default',
    'src/logger/core/proxy.ts',
    '  if (value === undefined || value === null || value === false) return undefined;',
    '  if (value === undefined || value === null || value === false) return () => true;',
    ['test/hostile/trust-proxy'],
  ),
  hostile(
    'koa: a body given up on answered without Connection: close',
    'src/koa/index.ts',
    "    if (error.headers === undefined) error.headers = { connection: 'close' };",
    '',
    ['test/hostile/koa-abandoned-body', 'test/koa/'],
  ),
  hostile(
    "fastify: Fastify's own JSON and text parsers left in the context",
    'src/fastify/index.ts',
    '      if (instance.hasContentTypeParser(type)) instance.removeContentTypeParser(type);',
    '      void type;',
    ['test/hostile/fastify-parsers', 'test/fastify/parsers'],
  ),
  hostile(
    'fastify: with every parser off, a body passed on unread',
    'src/fastify/index.ts',
    "        throw withCode(createError('media.type.unsupported', { mediaType: mediaType ?? '' }));",
    '        return undefined;',
    ['test/hostile/fastify-parsers'],
  ),
  hostile(
    'body-fields: secret-named keys inside a named value shown',
    'src/logger/core/body-fields.ts',
    '      const ok = this.secret(key)',
    '      const ok = false',
    ['test/hostile/body-fields'],
  ),
  hostile(
    'body-fields: a named path through a secret-named key shown',
    'src/logger/core/body-fields.ts',
    '    if (maskedPath(keys, secret)) {',
    '    if (false) {',
    ['test/hostile/body-fields'],
  ),
  hostile(
    "body-fields: the redact option's names not masked",
    'src/logger/core/body-fields.ts',
    '  for (const name of [...policy.headers, ...policy.query]) whole.add(normalised(name));',
    '',
    ['test/logger/body-fields'],
  ),
  hostile(
    'body-fields: inherited properties followed',
    'src/logger/core/body-fields.ts',
    '    } else if (isPlainObject(value) && Object.hasOwn(value, key)) {',
    '    } else if (isPlainObject(value) && key in value) {',
    ['test/hostile/body-fields'],
  ),
  hostile(
    'body-fields: any object read, not only plain ones',
    'src/logger/core/body-fields.ts',
    '    } else if (isPlainObject(value) && Object.hasOwn(value, key)) {',
    "    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, key)) {",
    ['test/hostile/body-fields'],
  ),
  hostile(
    'body-fields: prototype segments allowed in named paths',
    'src/logger/core/body-fields.ts',
    "    if (keys.some((key) => key === '' || FORBIDDEN_SEGMENTS.has(key))) {",
    "    if (keys.some((key) => key === '')) {",
    ['test/logger/body-fields'],
  ),
  hostile(
    'body-fields: the walk not stopped at the cap',
    'src/logger/core/body-fields.ts',
    '    return this.text.length <= this.room;',
    '    return true;',
    ['test/hostile/body-fields'],
  ),
  hostile(
    'body-fields: the cap counted in UTF-16 units, not bytes',
    'src/logger/core/body-fields.ts',
    '      const fits = writer.write(value, maxDepth) && byteLength(writer.text) <= room;',
    '      const fits = writer.write(value, maxDepth);',
    ['test/hostile/body-fields'],
  ),
  hostile(
    'body-fields: no depth cap',
    'src/logger/core/body-fields.ts',
    '    if (levels === 0) return this.add(\'"[Object]"\');',
    '',
    ['test/hostile/body-fields'],
  ),
  hostile(
    'body-fields: keys written unescaped',
    'src/logger/core/body-fields.ts',
    '      const name = encodeString(key);',
    `      const name = '"' + key + '"';`,
    ['test/hostile/body-fields'],
  ),
  hostile(
    'sample: a failure sampled out like a success',
    WRITER,
    '          slow || status === undefined || status >= c.keepStatus || failureOf(req) !== undefined;',
    '          slow || status === undefined || failureOf(req) !== undefined;',
    ['test/hostile/sampling-and-exclusion', 'test/logger/sampling'],
  ),
  hostile(
    'sample: traceId: false ignored',
    'src/logger/core/controls.ts',
    '    byTraceId: traceId !== false,',
    '    byTraceId: true,',
    ['test/hostile/sampling-and-exclusion'],
  ),
  hostile(
    'exclude: a path with dot segments left out by its prefix',
    'src/logger/core/controls.ts',
    '      patterns.some((pattern) => pattern.test(path))) &&\n    !DOT_SEGMENT.test(path);',
    '      patterns.some((pattern) => pattern.test(path)));',
    ['test/hostile/sampling-and-exclusion'],
  ),
  hostile(
    'exclude: a global RegExp kept with its lastIndex',
    'src/logger/core/controls.ts',
    "      patterns.push(new RegExp(item.source, item.flags.replace(/[gy]/g, '')));",
    '      patterns.push(item);',
    ['test/hostile/sampling-and-exclusion'],
  ),
  // destination (issue 42): test/destination/, real processes, signals and files.
  hostile('destination: nothing written on exit', EXIT, "  process.on('exit', flushAll);\n", '', [
    'test/destination/exit',
  ]),
  hostile(
    'destination: signals not listened for',
    EXIT,
    '  for (const signal of SIGNALS) process.on(signal, onSignal);\n',
    '',
    ['test/destination/exit'],
  ),
  hostile(
    'destination: a signal ends the process with status 0 instead of the signal',
    EXIT,
    '  process.removeListener(signal, onSignal);\n  process.kill(process.pid, signal);',
    '  process.exit(0);',
    ['test/destination/exit'],
  ),
  hostile(
    "destination: the application's own signal handler overridden",
    EXIT,
    '  if (applicationListens(signal)) return;\n',
    '',
    ['test/destination/exit'],
  ),
  hostile(
    "destination: another copy's listener taken for the application's",
    EXIT,
    '  return process.listeners(signal).some((listener) => !(OURS in listener));',
    '  return process.listeners(signal).length > 1;',
    ['test/destination/exit'],
  ),
  hostile(
    'destination: no bound on what is held',
    DESTINATION,
    '    if (this.held + size > this.options.maxBytes) {',
    '    if (false) {',
    ['test/destination/notice', 'test/destination/slow-reader'],
  ),
  hostile(
    'destination: no notice of dropped lines when writing catches up',
    DESTINATION,
    '    if (this.overflow !== undefined) this.closeOverflow(this.lastLine);\n',
    '',
    ['test/destination/notice', 'test/destination/slow-reader'],
  ),
  hostile(
    'destination: a full pipe taken for a failure',
    DESTINATION,
    "const AGAIN = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);",
    'const AGAIN = new Set<string>();',
    ['test/destination/flush', 'test/destination/slow-reader'],
  ),
  hostile(
    'destination: reopen keeps writing to the renamed file',
    DESTINATION,
    '    this.closeFile();\n    this.open(true);\n  }',
    '  }',
    ['test/destination/rotation'],
  ),
  hostile(
    'destination: flush() resolves although its lines were dropped',
    DESTINATION,
    '      else if (this.lostAccepted > waiter.lost) waiter.reject(this.failure());\n',
    '',
    ['test/destination/flush'],
  ),
  hostile(
    'destination: lines of a failed write not counted',
    DESTINATION,
    '    this.dropped += lost;\n',
    '',
    ['test/destination/faults'],
  ),
  hostile(
    'destination: one warning per failure instead of per kind',
    DESTINATION,
    '    if (this.warned.has(kind)) return;\n',
    '',
    ['test/destination/faults'],
  ),
  hostile(
    'destination: a path that failed to open is never tried again',
    DESTINATION,
    '    if (!now && time < this.nextOpen) return false;',
    '    if (!now) return false;',
    ['test/destination/faults'],
  ),
];
