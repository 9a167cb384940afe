import httpware from '../dist/index.cjs';

export const { httpwareLogger, httpwareParsers } = httpware.fastify;
