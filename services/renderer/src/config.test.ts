import { describe, expect, it } from 'vitest';
import { ConfigError } from '@tern/shared/config/service-config';
import { parseRendererConfig } from './config.js';

describe('renderer config', () => {
  it('has the documented defaults', () => {
    const config = parseRendererConfig({});
    expect(config).toMatchObject({ PORT: 3001, SSR_STREAM_TIMEOUT_MS: 5000, ASSETS_PREFIX: '/_nuxt/', REDIS_PREFIX: 'site:' });
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.PUBLIC_ORIGIN).toBeUndefined();
  });

  it('treats empty values as unset and normalises the assets prefix', () => {
    const config = parseRendererConfig({ REDIS_URL: '', PUBLIC_ORIGIN: '', ASSETS_PREFIX: 'static' });
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.PUBLIC_ORIGIN).toBeUndefined();
    expect(config.ASSETS_PREFIX).toBe('/static/');
  });

  it.each([
    ['SSR_STREAM_TIMEOUT_MS', 'soon'],
    ['PUBLIC_ORIGIN', 'cookbook.example'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['ASSETS_PREFIX', '/../x/'],
  ])('names %s when it is bad', (variable, value) => {
    expect(() => parseRendererConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => parseRendererConfig({ [variable]: value })).toThrow(new RegExp(variable));
  });
});
