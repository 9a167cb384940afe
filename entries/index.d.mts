/// <reference path="./request-id.d.ts" />
/// <reference path="./raw-body.d.ts" />
export * from '../dist/index.cjs';
