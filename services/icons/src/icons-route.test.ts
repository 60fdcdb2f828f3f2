/** The contract of `/api/_nuxt_icon/{collection}.json`, point by point, against real @iconify/json data. */
import { readFile } from 'node:fs/promises';
import type { IconifyJSON } from '@iconify/types';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IconSubset } from './icon-subset.js';
import { startIconsApp, testCatalogue } from './test-support/icons-app.js';

let app: FastifyInstance;
let lucide: IconifyJSON;

beforeAll(async () => {
  ({ app } = await startIconsApp());
  lucide = JSON.parse(await readFile((await testCatalogue()).filePath('lucide'), 'utf8')) as IconifyJSON;
});
afterAll(() => app.close());

const get = (url: string) => app.inject({ method: 'GET', url });

describe('GET /api/_nuxt_icon/{collection}.json?icons=', () => {
  it('answers the subset with the data of @iconify/json, with and without .json', async () => {
    for (const url of ['/api/_nuxt_icon/lucide.json?icons=house,check', '/api/_nuxt_icon/lucide?icons=house,check']) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = response.json<IconSubset>();
      expect(Object.keys(body)).toEqual(['prefix', 'lastModified', 'icons', 'width', 'height']);
      expect(body.prefix).toBe('lucide');
      expect(body.lastModified).toBe(lucide.lastModified);
      expect(body.icons).toEqual({ check: lucide.icons.check, house: lucide.icons.house });
      expect([body.width, body.height]).toEqual([lucide.width, lucide.height]);
    }
  });

  it('trims, de-duplicates and sorts names, so any order gives the same body and ETag', async () => {
    const a = await get('/api/_nuxt_icon/lucide.json?icons=house,check');
    const b = await get('/api/_nuxt_icon/lucide.json?icons=%20check%20,house,check,,');
    expect(b.body).toBe(a.body);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(Object.keys(a.json<IconSubset>().icons)).toEqual(['check', 'house']);
  });

  it('resolves aliases and includes their parents', async () => {
    const body = (await get('/api/_nuxt_icon/lucide.json?icons=activity-square')).json<IconSubset>();
    expect(body.aliases).toEqual({ 'activity-square': { parent: 'square-activity' } });
    expect(Object.keys(body.icons)).toEqual(['square-activity']);
    expect(body.not_found).toBeUndefined();
  });

  it('lists missing and invalid names in not_found, sorted', async () => {
    const response = await get('/api/_nuxt_icon/lucide.json?icons=house,no-such-icon,Bad_Name,%E2%9C%93');
    expect(response.statusCode).toBe(200);
    const body = response.json<IconSubset>();
    expect(Object.keys(body.icons)).toEqual(['house']);
    expect(body.not_found).toEqual(['Bad_Name', 'no-such-icon', '✓']);
  });

  it('answers 200 with empty icons for a known collection when every name is missing', async () => {
    const response = await get('/api/_nuxt_icon/lucide.json?icons=nope-one,nope-two');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      prefix: 'lucide',
      lastModified: lucide.lastModified,
      icons: {},
      width: 24,
      height: 24,
      not_found: ['nope-one', 'nope-two'],
    });
  });

  it('never returns the set info, categories, chars or suffixes', async () => {
    const body = (await get('/api/_nuxt_icon/mdi.json?icons=home,123')).json<Record<string, unknown>>();
    for (const key of ['info', 'categories', 'chars', 'suffixes', 'prefixes']) expect(body).not.toHaveProperty(key);
    expect(body.aliases).toEqual({ '123': { parent: 'numeric' } });
  });

  it('keeps set-level left and top, which place every icon of the set', async () => {
    const body = (await get('/api/_nuxt_icon/jam.json?icons=home')).json<IconSubset>();
    expect([body.left, body.top]).toEqual([-2, -2]);
    expect(Object.keys(body.icons)).toEqual(['home']);
  });

  it('never lets a name reach a prototype key', async () => {
    const names = ['constructor', '__proto__', 'hasownproperty', 'hasOwnProperty', 'tostring', 'valueof', 'prototype'];
    const response = await get(`/api/_nuxt_icon/lucide.json?icons=${names.join(',')}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<IconSubset>();
    expect(body.icons).toEqual({});
    expect(body.aliases).toBeUndefined();
    expect(body.not_found).toEqual([...names].sort());
    expect(response.body).not.toContain('function');
  });

  it('refuses a malformed collection with 400 and an unknown one with 404', async () => {
    const malformed = await get('/api/_nuxt_icon/Lucide.json?icons=house');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request' });
    const unknown = await get('/api/_nuxt_icon/no-such-set.json?icons=house');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ statusCode: 404, message: 'Unknown icon collection: no-such-set' });
  });

  it('treats object keys as unknown collections, not as sets', async () => {
    for (const name of ['constructor', 'hasownproperty', 'prototype', 'tostring']) {
      expect((await get(`/api/_nuxt_icon/${name}.json?icons=house`)).statusCode).toBe(404);
    }
    expect((await get('/api/_nuxt_icon/__proto__.json?icons=house')).statusCode).toBe(400);
  });

  it('answers 400 when no valid name remains, or more than 200 are asked', async () => {
    for (const query of ['', '?icons=', '?icons=,,%20,', '?icons=Bad,%E2%9C%93', '?other=house']) {
      const response = await get(`/api/_nuxt_icon/lucide.json${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/No icons specified/);
    }
    const many = Array.from({ length: 201 }, (_, i) => `i-${i}`).join(',');
    const tooMany = await get(`/api/_nuxt_icon/lucide.json?icons=${many}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ message: string }>().message).toMatch(/at most 200/);
    const exactly = Array.from({ length: 200 }, (_, i) => `i-${i}`).join(',');
    expect((await get(`/api/_nuxt_icon/lucide.json?icons=${exactly}`)).statusCode).toBe(200);
  });

  it('loads a collection that is not preloaded on first use', async () => {
    const response = await get('/api/_nuxt_icon/bytesize.json?icons=home');
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json<IconSubset>().icons)).toEqual(['home']);
  });
});
