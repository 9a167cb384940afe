// The Web suite on workerd (Cloudflare Workers' runtime) through miniflare: the app bundled
// into one ES module as wrangler bundles a Worker, with the `nodejs_compat` flag.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundleWorker, startWorkerd } from '../helpers/web-servers.js';
import { describeWebSuite } from './describe.js';

describeWebSuite('workerd (miniflare), nodejs_compat', () => startWorkerd());

test('without nodejs_compat, workerd refuses the app at startup: it has no node: module', async () => {
  const script = await bundleWorker();
  await assert.rejects(
    startWorkerd({ script, compatibilityFlags: [] }),
    /No such module "node:[a-z_]+"/,
  );
});
