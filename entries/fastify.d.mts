// Fastify's own plugin types for the two plugins, so `fastify.register(plugin, options)` checks
// the options. Only this entry names fastify's types: the bundle declares the plugins
// structurally, for applications that compile without Fastify installed.
import type { FastifyPluginCallback } from 'fastify';
import type { FastifyLoggerOptions, FastifyParsersOptions } from '../dist/index.cjs';

export type { FastifyLoggerOptions, FastifyParsersOptions };
/** One httpware line per request of the context it is registered in (and its children). */
export declare const httpwareLogger: FastifyPluginCallback<FastifyLoggerOptions>;
/** httpware's json, urlencoded, text (and raw) parsers for the context it is registered in. */
export declare const httpwareParsers: FastifyPluginCallback<FastifyParsersOptions>;
