/// <reference path="./request-id.d.ts" />
/// <reference path="./raw-body.d.ts" />
// The root entry under `require`: the bundled types, with the Express `Request` fields its
// middleware set (`req.id`, `req.rawBody`).
export * from '../dist/index.cjs';
