import { describe, expect, it } from 'vitest';
import { assetsPrefix, ConfigError, flag, httpUrl, list, parseConfig, port, serviceFields } from './service-config.js';

describe('parseConfig', () => {
  it('applies defaults and coerces values', () => {
    const config = parseConfig({ ...serviceFields(3000), DEBUG: flag(false), NAMES: list(['a']) }, { PORT: '4300', DEBUG: 'yes' });
    expect(config).toMatchObject({ PORT: 4300, HOST: '127.0.0.1', NODE_ENV: 'development', DEBUG: true, NAMES: ['a'] });
  });

  it('treats an empty value as not set', () => {
    expect(parseConfig({ PORT: port(3000) }, { PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    ['abc', /PORT: expected a whole number from 0 to 65535 \(got "abc"\)/],
    ['70000', /PORT: expected a whole number from 0 to 65535 \(got "70000"\)/],
    ['3.5', /PORT: expected a whole number/],
  ])('names the variable and what it expected for PORT=%s', (value, message) => {
    expect(() => parseConfig({ PORT: port(3000) }, { PORT: value })).toThrow(message);
  });

  it('refuses a URL that is not http(s) and a flag that is not a boolean', () => {
    expect(() => parseConfig({ RENDERER_URL: httpUrl() }, { RENDERER_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => parseConfig({ DEBUG: flag(false) }, { DEBUG: 'maybe' })).toThrow(/DEBUG: expected true or false/);
  });

  it('strips a trailing slash from URLs', () => {
    expect(parseConfig({ U: httpUrl() }, { U: 'http://127.0.0.1:3001/' }).U).toBe('http://127.0.0.1:3001');
  });

  it('normalises ASSETS_PREFIX the same way for every service, refusing dot segments', () => {
    expect(parseConfig({ ASSETS_PREFIX: assetsPrefix() }, {}).ASSETS_PREFIX).toBe('/_nuxt/');
    expect(parseConfig({ ASSETS_PREFIX: assetsPrefix() }, { ASSETS_PREFIX: '/static' }).ASSETS_PREFIX).toBe('/static/');
    expect(() => parseConfig({ ASSETS_PREFIX: assetsPrefix() }, { ASSETS_PREFIX: '/../x/' })).toThrow(
      /ASSETS_PREFIX: expected a plain path/,
    );
  });

  it('leaves METRICS_PORT to default to PORT + 1000, and says so when that is not a port', () => {
    const shape = serviceFields(3000);
    expect(parseConfig(shape, {}).METRICS_PORT).toBeUndefined();
    expect(parseConfig(shape, { METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    expect(() => parseConfig(shape, { PORT: '65000' })).toThrow(/METRICS_PORT: PORT \+ 1000 \(66000\) is above 65535/);
    expect(parseConfig(shape, { PORT: '65000', METRICS_PORT: '9100' }).METRICS_PORT).toBe(9100);
    expect(() => parseConfig(shape, { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});
