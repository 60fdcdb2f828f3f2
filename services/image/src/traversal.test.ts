import { request } from 'node:http';
import { symlink } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside, safeSegments } from './local-source.js';
import { startImageApp, type TestImageApp } from './test-support/helpers.js';

let t: TestImageApp;
let port: number;

beforeAll(async () => {
  t = await startImageApp();
  // A link inside the root that points at the sibling folder whose name shares the root's prefix.
  await symlink(join(t.fixtures.base, 'public-secret'), join(t.fixtures.root, 'images', 'escape'));
  await symlink(join(t.fixtures.base, 'public-secret', 'secret.png'), join(t.fixtures.root, 'images', 'secret-link.png'));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** A raw HTTP request: the path reaches the server exactly as written (inject would normalise it). */
function raw(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('path traversal', () => {
  const attempts = [
    '/_ipx/_/../public-secret/secret.png',
    '/_ipx/_/images/../../public-secret/secret.png',
    '/_ipx/_/%2e%2e/public-secret/secret.png',
    '/_ipx/_/%2E%2E%2Fpublic-secret%2Fsecret.png',
    '/_ipx/_/..%2fpublic-secret%2fsecret.png',
    '/_ipx/_/images%2f..%2f..%2fpublic-secret%2fsecret.png',
    '/_ipx/_/..%5cpublic-secret%5csecret.png',
    '/_ipx/w_10/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/_ipx/_/images/escape/secret.png',
    '/_ipx/_/images/secret-link.png',
    '/_ipx/_/images/%00photo.jpg',
  ];
  for (const path of attempts) {
    it(path, async () => {
      const res = await raw(path);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ statusCode: 403 });
    });
  }

  it('an absolute path is read inside the root, never from the file system root', async () => {
    for (const path of ['/_ipx/_/%2Fetc%2Fpasswd', '/_ipx/_//etc/passwd', '/_ipx/_/etc/passwd']) {
      const res = await raw(path);
      expect(res.status).toBe(404);
      expect(res.body).not.toContain('root:');
    }
  });

  it('the same files are served through a legitimate path', async () => {
    expect((await raw('/_ipx/w_10/images/photo.jpg')).status).toBe(200);
    expect((await raw('/_ipx/w_10/images%2Fphoto.jpg')).status).toBe(200);
  });

  it('the root test is a folder test, not a prefix test (CVE-2025-54387)', () => {
    expect(isInside('/x/public', '/x/public-secret/a.png')).toBe(false);
    expect(isInside('/x/public', '/x/public/a.png')).toBe(true);
    expect(isInside('/x/public', '/x/public')).toBe(false);
    expect(() => safeSegments('/a/../b')).toThrow();
    expect(safeSegments('/a/b.png')).toEqual(['a', 'b.png']);
  });
});
