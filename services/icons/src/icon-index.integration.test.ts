/**
 * The build-time icon index (npm run build:icons): exact byte ranges of the real @iconify/json
 * files, the same answers as from a whole set, and cold requests that read kilobytes of a huge set
 * instead of parsing all of it again each time the LRU dropped it (issue 13, item 15).
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IconifyJSON } from '@iconify/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeIconIndexes } from '@tern/cli/build-icon-index';
import { buildIconIndex } from './icon-index-build.js';
import { startIconsApp, testCatalogue } from './test-support/icons-app.js';

// The three biggest files of @iconify/json: about 104, 26 and 14 MB.
const HUGE = ['fluent-emoji', 'noto', 'iconmind'];
let indexDir: string;

beforeAll(async () => {
  indexDir = await mkdtemp(join(tmpdir(), 'icon-index-'));
  await writeIconIndexes(indexDir, [...HUGE, 'mdi', 'ei']);
}, 60_000);
afterAll(() => rm(indexDir, { recursive: true, force: true }));

describe('buildIconIndex', () => {
  it('records for every icon the byte range of exactly its JSON in the file', async () => {
    const catalogue = await testCatalogue();
    for (const prefix of ['mdi', 'ei', 'bytesize']) {
      const file = await readFile(catalogue.filePath(prefix));
      const parsed = JSON.parse(file.toString('utf8')) as IconifyJSON;
      const index = buildIconIndex(file, parsed, catalogue.version);
      expect(index.names.length).toBe(Object.keys(parsed.icons).length);
      index.names.forEach((name, i) => {
        const [offset, length] = [index.ranges[i * 2]!, index.ranges[i * 2 + 1]!];
        expect(JSON.parse(file.toString('utf8', offset, offset + length))).toEqual(parsed.icons[name]);
      });
      expect(index.aliases ?? {}).toEqual(parsed.aliases ?? {});
    }
  });

  it('refuses a file whose icons it cannot account for', async () => {
    const catalogue = await testCatalogue();
    const file = await readFile(catalogue.filePath('ei'));
    const parsed = JSON.parse(file.toString('utf8')) as IconifyJSON;
    const fewer = { ...parsed, icons: { archive: parsed.icons.archive! } };
    expect(() => buildIconIndex(file, fewer, catalogue.version)).toThrow(/not in the parsed set/);
  });
});

describe('the service with indexes', () => {
  it('answers as from the whole set: icons, aliases, their parents, missing names, SVGs', async () => {
    const indexed = await startIconsApp({ preload: [], indexDir });
    const whole = await startIconsApp({ preload: [], indexDir: join(indexDir, 'none') });
    try {
      const mdi = JSON.parse(await readFile((await testCatalogue()).filePath('mdi'), 'utf8')) as IconifyJSON;
      const aliases = Object.keys(mdi.aliases ?? {}).slice(0, 3);
      for (const url of [
        `/api/_nuxt_icon/mdi.json?icons=home,account,${aliases.join(',')},no-such-icon,constructor,__proto__`,
        '/api/_nuxt_icon/ei.json?icons=archive,bell',
        `/api/_nuxt_icon/mdi/${aliases[0]}.svg?width=32`,
        '/api/_nuxt_icon/mdi/constructor.svg',
        '/api/_nuxt_icon/fluent-emoji/red-apple.svg',
      ]) {
        const [a, b] = await Promise.all([indexed, whole].map(({ app }) => app.inject({ method: 'GET', url })));
        expect([a!.statusCode, a!.body, a!.headers.etag]).toEqual([b!.statusCode, b!.body, b!.headers.etag]);
      }
      expect(indexed.reads.fullParses).toBe(0);
      expect(whole.reads.fullParses).toBe(3);
    } finally {
      await Promise.all([indexed.app.close(), whole.app.close()]);
    }
  }, 30_000);

  it('alternating three huge sets under a bound that fits none of them whole: kilobytes read, no whole-file parse', async () => {
    // 16 MB: not one of the three whole sets (2x their file size by the cache's estimate) would fit.
    const { app, reads, sets } = await startIconsApp({ preload: [], indexDir, memoryLimitBytes: 16 * 1024 * 1024 });
    const catalogue = await testCatalogue();
    const fileBytes = new Map(
      await Promise.all(HUGE.map(async (prefix) => [prefix, (await stat(catalogue.filePath(prefix))).size] as const)),
    );
    try {
      for (let round = 0; round < 3; round++) {
        for (const prefix of HUGE) {
          const before = reads.bytesRead;
          const response = await app.inject({ method: 'GET', url: `/api/_nuxt_icon/${prefix}.json?icons=home,star,heart` });
          expect(response.statusCode).toBe(200);
          // The first request reads the set's index (a few percent of the file), later ones only icons.
          expect(reads.bytesRead - before).toBeLessThan(round === 0 ? fileBytes.get(prefix)! / 10 : 200_000);
        }
      }
      expect(reads.fullParses).toBe(0);
      expect(reads.indexLoads).toBe(3);
      expect(sets.cache.stats().prefixes.sort()).toEqual([...HUGE].sort());
      const metric = await app.telemetry.metrics.registry.getSingleMetricAsString('icons_set_file_reads_total');
      expect(metric).toMatch(/icons_set_file_reads_total\{kind="whole",service="icons"\} 0$/m);
      expect(metric).toMatch(/icons_set_file_reads_total\{kind="index",service="icons"\} 3$/m);
    } finally {
      await app.close();
    }
  });
});
