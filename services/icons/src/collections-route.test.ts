/** `/api/_nuxt_icon` (the collection list) and `/readyz` (the preloaded sets are in memory). */
import { describe, expect, it } from 'vitest';
import { createLogger } from '@tern/shared/logging/logger';
import { buildIconsApp } from './app.js';
import type { CollectionSummary } from './catalogue.js';
import { readIconSetFile } from './icon-set-file.js';
import { startIconsApp, testCatalogue, testIconsConfig } from './test-support/icons-app.js';

describe('GET /api/_nuxt_icon', () => {
  it('lists every collection of @iconify/json with its name and icon count', async () => {
    const { app } = await startIconsApp();
    try {
      const response = await app.inject({ method: 'GET', url: '/api/_nuxt_icon' });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ version: string; count: number; collections: CollectionSummary[] }>();
      expect(body.count).toBe(body.collections.length);
      expect(body.count).toBeGreaterThan(200);
      expect(body.collections.find((c) => c.prefix === 'lucide')).toEqual({ prefix: 'lucide', name: 'Lucide', total: expect.any(Number) });
      const prefixes = body.collections.map((c) => c.prefix);
      expect(prefixes).toEqual([...prefixes].sort());
      const etag = String(response.headers.etag);
      const again = await app.inject({ method: 'GET', url: '/api/_nuxt_icon/', headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
    } finally {
      await app.close();
    }
  });
});

describe('/readyz', () => {
  it('is down until the preloaded sets are loaded, then ready', async () => {
    const { app, preloaded } = await startIconsApp({ preload: ['lucide', 'mdi'] });
    await preloaded;
    try {
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.json()).toEqual({ status: 'ready', checks: { preload: 'ok' } });
    } finally {
      await app.close();
    }
  });

  it('reports down while a preloaded set is still loading', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const catalogue = await testCatalogue();
    const built = await buildIconsApp(testIconsConfig(['lucide']), {
      logger: createLogger({ service: 'icons', level: 'silent', format: 'json' }),
      catalogue,
      // The real file, read only once the test opens the gate.
      loader: async (prefix) => {
        await gate;
        return readIconSetFile(catalogue.filePath(prefix), prefix);
      },
    });
    try {
      const before = await built.app.inject({ method: 'GET', url: '/readyz' });
      expect(before.statusCode).toBe(503);
      release();
      await built.preloaded;
      expect((await built.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await built.app.close();
    }
  });

  it('rejects preloading a collection @iconify/json does not have', async () => {
    await expect(startIconsApp({ preload: ['no-such-set'] })).rejects.toThrow(/no-such-set/);
  });
});
