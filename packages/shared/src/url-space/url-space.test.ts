import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMetaPath, isBuildFilePath, latestBuildPath } from './build-files.js';
import { isHealthPath } from './health.js';
import { iconSetUrl, iconSvgPath, isIconPath, isUnderIcons } from './icons.js';
import { imagePath, isImagePath } from './images.js';
import { isPayloadPath, pagePathOfPayload, payloadPath } from './payload.js';

describe('the URL spaces', () => {
  it('images: /_ipx/{modifiers}/{source}', () => {
    expect(imagePath('w_640', 'images/a.jpg')).toBe('/_ipx/w_640/images/a.jpg');
    expect([isImagePath('/_ipx/w_1/a.png'), isImagePath('/_ipx'), isImagePath('/_ipxx/a')]).toEqual([true, false, false]);
  });

  it('icons: /api/_nuxt_icon/{collection}.json?icons=a,b and {collection}/{name}.svg', () => {
    expect(iconSetUrl('lucide', ['house', 'sun'])).toBe('/api/_nuxt_icon/lucide.json?icons=house,sun');
    expect(iconSvgPath('lucide', 'house')).toBe('/api/_nuxt_icon/lucide/house.svg');
    expect([isIconPath('/api/_nuxt_icon/x.json'), isIconPath('/api/_nuxt_icon')]).toEqual([true, false]);
    expect(['/api/_nuxt_icon', '/api/_nuxt_icon?x', '/api/_nuxt_icon/a', '/api/_nuxt_iconx'].map(isUnderIcons)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('payloads: {route}/_payload.json and back', () => {
    expect(['/', '/category/git', '/category/git/'].map(payloadPath)).toEqual([
      '/_payload.json',
      '/category/git/_payload.json',
      '/category/git/_payload.json',
    ]);
    expect(['/_payload.json', '/category/git/_payload.json', '/category/git'].map(pagePathOfPayload)).toEqual(['/', '/category/git', null]);
    expect([isPayloadPath('/a/_payload.json'), isPayloadPath('/a_payload.json')]).toEqual([true, false]);
  });

  it('health: exactly /healthz and /readyz', () => {
    expect(['/healthz', '/readyz', '/healthz/', '/healthzz'].map(isHealthPath)).toEqual([true, true, false, false]);
  });

  it('build files: {prefix}builds/latest.json and {prefix}builds/meta/{id}.json', () => {
    expect(latestBuildPath('/_nuxt/')).toBe('/_nuxt/builds/latest.json');
    expect(buildMetaPath('/assets/', 'a b')).toBe('/assets/builds/meta/a%20b.json');
    expect([isBuildFilePath('/_nuxt/builds/x', '/_nuxt/'), isBuildFilePath('/_nuxt/entry.js', '/_nuxt/')]).toEqual([true, false]);
  });

  it('imports nothing: the browser bundle takes these files as they are', () => {
    const dir = import.meta.dirname;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(/^import /m);
    }
  });
});
