import httpware from '../dist/index.cjs';

export const koa = httpware.koa;
export const { logger, json, urlencoded, text, raw, bodyParser } = httpware.koa;
export default koa;
