export {
  type AbandonOptions,
  abandon,
  type RawOptions,
  type RawReply,
  type Reply,
  rawHead,
  type SendOptions,
  send,
  sendRaw,
} from './client.js';
export { captureLines, type LineCapture } from './lines.js';
export {
  type AnyServer,
  describeBody,
  type Framework,
  frameworks,
  frameworksOver,
  type Handler,
  type Middleware,
  type Outcome,
  type ServerOptions,
  serve,
  startServer,
  type TestServer,
  type Transport,
  transports,
} from './server.js';
