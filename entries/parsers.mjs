import httpware from '../dist/index.cjs';

export const parsers = httpware.parsers;
export const { json, raw, text, urlencoded, toResponse, problemHandler } = httpware.parsers;
export default parsers;
