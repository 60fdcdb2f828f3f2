import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preloadedSetsWithoutIndex } from '../src/index-notice.js';

describe('the missing-index warning', () => {
  it('names only the preloaded sets without an index: none for a site that preloads none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'icon-index-'));
    try {
      expect(preloadedSetsWithoutIndex([], join(dir, 'absent'))).toEqual([]);
      await writeFile(join(dir, 'lucide.json'), '{}');
      expect(preloadedSetsWithoutIndex(['lucide', 'logos'], dir)).toEqual(['logos']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
