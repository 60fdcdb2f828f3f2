import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tern/shared/config/service-config';
import { DEFAULT_PRELOAD, parseIconsConfig } from './config.js';
import { testCatalogue } from './test-support/icons-app.js';

describe('icons config', () => {
  it('defaults to port 3003, 256 MB and the sets the site uses', () => {
    const config = parseIconsConfig({});
    expect(config.PORT).toBe(3003);
    expect(config.ICONS_MEMORY_LIMIT_MB).toBe(256);
    expect(config.ICONS_PRELOAD).toEqual(DEFAULT_PRELOAD);
  });

  it('the default preload sets all exist in @iconify/json', async () => {
    const catalogue = await testCatalogue();
    expect(DEFAULT_PRELOAD.filter((prefix) => !catalogue.has(prefix))).toEqual([]);
  });

  it('reads a custom preload list and memory limit', () => {
    const config = parseIconsConfig({ ICONS_PRELOAD: ' mdi , lucide ', ICONS_MEMORY_LIMIT_MB: '64' });
    expect(config.ICONS_PRELOAD).toEqual(['mdi', 'lucide']);
    expect(config.ICONS_MEMORY_LIMIT_MB).toBe(64);
  });

  it('names the variable of a bad value', () => {
    for (const [variable, value] of [
      ['ICONS_MEMORY_LIMIT_MB', 'lots'],
      ['ICONS_MEMORY_LIMIT_MB', '0'],
      ['ICONS_PRELOAD', 'lucide,../etc'],
      ['PORT', 'abc'],
    ] as const) {
      expect(() => parseIconsConfig({ [variable]: value })).toThrow(ConfigError);
      expect(() => parseIconsConfig({ [variable]: value })).toThrow(variable);
    }
  });
});
