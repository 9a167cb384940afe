export {
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
  describeBody,
  type Framework,
  frameworks,
  type Handler,
  type Middleware,
  type Outcome,
  type ServerOptions,
  startServer,
  type TestServer,
} from './server.js';
