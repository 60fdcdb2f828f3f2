/**
 * Hostile requests against the production stack, over raw sockets so every byte is ours: traversal
 * in every encoding, bad encodings, open redirects, SSRF through /_ipx, wrong methods, protocol
 * abuse (long URLs, huge and many headers, null bytes, CRLF, obs-fold, CL+TE, Host tricks), bombs
 * and broken bodies, on every surface. The cases come from tables; every answer is checked alike:
 * no 5xx (every upstream is up), the error shape or page, a request id, the security headers, no
 * stack, file path or internal code, no off-site or out-of-prefix Location, the socket closed as
 * asked (every request says `Connection: close`), and an access line at the gateway. Afterwards
 * all four services are still healthy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawAnswer } from '../support/raw-http.js';
import { startStack, type Stack } from '../support/stack.js';

const HOST = 'site.example';
const SITE = `http://${HOST}`;
const EXTERNAL_REDIRECTS = new Set(['https://example.com/source']);

interface Case {
  name: string;
  raw: string | Buffer;
  /** Statuses this case may answer with (default: any below 500). */
  statuses?: number[];
  /** The request never completes (a body that does not arrive): giving up without an answer is fine. */
  incomplete?: boolean;
  /** Sent once 100 Continue arrives. */
  afterContinue?: string;
  /** A Location must stay under this path. */
  locationUnder?: string;
  check?: (answer: RawAnswer) => string | null;
}

interface RequestParts {
  method?: string;
  accept?: string;
  headers?: string[];
  body?: string | Buffer;
  host?: string | null;
  version?: string;
}

/**
 * Where a browser itself resolves the request's path (dot segments in any spelling, backslashes),
 * with empty segments and a trailing slash dropped: the canonical redirect (packages/shared/src/http/canonical-path.ts)
 * answers a spelling with it before any redirect rule sees the path, and it never leaves the site.
 */
function browserResolution(raw: string | Buffer): string {
  const target = raw.toString('latin1').split(' ', 2)[1] ?? '/';
  const path = new URL(target, SITE).pathname.replace(/\/{2,}/g, '/');
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

/** One request, always with `Connection: close`; a body gets its Content-Length unless one is given. */
function request(target: string, parts: RequestParts = {}): Buffer {
  const { method = 'GET', accept = 'text/html', headers = [], body, host = HOST, version = 'HTTP/1.1' } = parts;
  const lines = [`${method} ${target} ${version}`];
  if (host !== null) lines.push(`Host: ${host}`);
  lines.push(`Accept: ${accept}`, 'Connection: close', 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) bad-input-suite');
  lines.push(...headers);
  const bodyBytes = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  if (body !== undefined && !headers.some((h) => /^(content-length|transfer-encoding):/i.test(h)))
    lines.push(`Content-Length: ${bodyBytes.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bodyBytes]);
}

const JSON_ACCEPT = 'application/json';
const loginHeaders = (extra: string[] = []) => [`Origin: ${SITE}`, 'Content-Type: application/json', ...extra];

// ---------------------------------------------------------------------------------------------
// The tables
// ---------------------------------------------------------------------------------------------

/** Where each hostile path is tried: pages, payloads, build files, assets, images, icons, the API. */
const SURFACES = [
  '/',
  '/category/',
  '/category/git/',
  '/_nuxt/',
  '/images/categories/',
  '/_ipx/_/',
  '/_ipx/w_100/',
  '/api/_nuxt_icon/',
  '/api/',
];

const TRAVERSALS = [
  '../../../../etc/passwd',
  '..%2f..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  '%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%5c..%5c..%5cetc%5cpasswd',
  '%252e%252e%252f%252e%252e%252fetc%252fpasswd',
  '..%c0%af..%c0%afetc%c0%afpasswd',
  '....//....//....//etc/passwd',
  '..;/..;/..;/etc/passwd',
  '.%2e/.%2e/.%2e/etc/passwd',
  '..%00/..%00/etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%5c%2e%2e%5cpackage.json',
  '../../package.json',
  '../.env',
  '..%2f..%2fdist%2fnode%2fservices%2fgateway%2fsrc%2fmain.js',
];

const BAD_ENCODINGS = ['%', '%E0%A4%A', '%ZZ', '%C0%AF', '%FF%FE%FD', '%00', '%0d%0aSet-Cookie:%20pwned=1', '%uFFFF', '%%32%65', 'a%2'];

const REDIRECT_ESCAPES = [
  '//evil.example',
  '%2e%2e%2f%2e%2e%2fevil.example',
  '%2e%2e/%2e%2e/evil.example',
  '..//evil.example',
  '%2f%2fevil.example',
  '%5c%5cevil.example',
  '/%5Cevil.example',
  '.%2e/.%2e/evil.example',
  '%09/evil.example',
  '@evil.example',
  'https:%2f%2fevil.example',
  '%2F%2Fevil.example%2F..',
  '..%2F..%2F..%2Fevil.example',
  '%2E%2E%5C%2E%2E%5Cevil.example',
];

const LOGIN_REDIRECTS = [
  '//evil.example',
  '/.//evil.example',
  '/..//evil.example',
  '/%2e%2e//evil.example',
  '/%2e//evil.example',
  '/\\evil.example',
  '/.\\/evil.example',
  'https://evil.example/',
  'javascript:alert(1)',
  '/%09/evil.example',
  '%2F%2Fevil.example',
  '/a/..//evil.example',
];

const SSRF_SOURCES = [
  'http://127.0.0.1:6379/',
  'http://localhost/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/',
  'http://0x7f000001/',
  'http://2130706433/',
  'http://127.1/',
  'http://0.0.0.0/',
  'http://metadata.google.internal/',
  'http://evil.example@127.0.0.1/',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
  'http:%2f%2f127.0.0.1%2f',
  'http://[::ffff:127.0.0.1]/',
  'http://10.0.0.1/',
  'http://192.168.0.1/',
];

const IMAGE_MODIFIERS = [
  'w_99999',
  's_100000x100000',
  'w_-1',
  'q_1000',
  'f_exe',
  'blur_1000000',
  'extract_0_0_99999_99999',
  'w_100&w_200',
  `w_${'9'.repeat(400)}`,
  'rotate_45',
  'w_1e9',
  'fit_%00',
];

const ICON_QUERIES = [
  '',
  'icons=',
  `icons=${'a'.repeat(5000)}`,
  `icons=${'sun,'.repeat(1000)}`,
  'icons=../../etc/passwd',
  'icons=%00',
  'icons=__proto__,constructor,prototype',
  'icons[]=sun&icons[]=moon',
  'icons=sun&icons=moon&icons=x',
  'icons=%E0%A4%A',
];

const ICON_COLLECTIONS = [
  'lucide.json',
  '__proto__.json',
  'constructor.json',
  '..%2f..%2fpackage.json',
  'LUCIDE.json',
  'lucide',
  '.json',
  'lucide/sun.svg?width=999999999',
  'lucide/..%2f..%2fx.svg',
];

const METHODS = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE', 'FOO', 'get', 'CONNECT'];
const METHOD_TARGETS = [
  '/',
  '/category/git',
  '/category/git/_payload.json',
  '/_nuxt/builds/latest.json',
  '/_ipx/w_100/images/categories/git.jpg',
  '/api/_nuxt_icon/lucide.json?icons=sun',
  '/api/categories',
  '/api/auth/session',
];

const LOGIN_BODIES: Array<[string, string | Buffer, string[]?]> = [
  ['malformed JSON', '{"email":'],
  ['JSON with a trailing comma', '{"email":"a@b.c","password":"x",}'],
  ['an array', '[1,2,3]'],
  ['a string', '"hello"'],
  ['null', 'null'],
  ['wrong types', '{"email":42,"password":{"$gt":""}}'],
  ['__proto__ pollution', '{"__proto__":{"admin":true},"email":"a@b.c","password":"x"}'],
  ['constructor pollution', '{"constructor":{"prototype":{"admin":true}}}'],
  ['nesting bomb', `${'['.repeat(50_000)}${']'.repeat(50_000)}`],
  ['a huge email', JSON.stringify({ email: `${'a'.repeat(100_000)}@b.c`, password: 'x' })],
  ['a huge password', JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(200_000) })],
  ['form-encoded', 'email=a%40b.c&password=x', ['Content-Type: application/x-www-form-urlencoded']],
  ['text/plain', '{"email":"a@b.c","password":"x"}', ['Content-Type: text/plain']],
  ['no content type', '{"email":"a@b.c","password":"x"}', ['Content-Type:']],
  ['a charset trick', '{"email":"a@b.c","password":"x"}', ['Content-Type: application/json; charset=utf-7']],
  ['utf-16 bytes', Buffer.from('{"email":"a@b.c"}', 'utf16le')],
  ['a NUL in the email', '{"email":"a\\u0000@b.c","password":"x"}'],
  ['a lone surrogate', '{"email":"\\ud800@b.c","password":"x"}'],
];

function cases(): Case[] {
  const all: Case[] = [];
  const add = (c: Case) => all.push(c);

  for (const surface of SURFACES) {
    for (const traversal of TRAVERSALS) {
      const accept = surface.startsWith('/api/') ? JSON_ACCEPT : 'text/html';
      add({
        name: `traversal ${surface}${traversal}`,
        raw: request(`${surface}${traversal}`, { accept }),
        check: (a) => (/root:x:0:0|\[fonts\]|"devDependencies"|REDIS_URL=/.test(a.body) ? 'a file outside the site leaked' : null),
      });
    }
    for (const encoding of BAD_ENCODINGS) {
      add({
        name: `bad encoding ${surface}${encoding}`,
        raw: request(`${surface}${encoding}`, { accept: surface.startsWith('/api/') ? JSON_ACCEPT : 'text/html' }),
        check: (a) => (/pwned/i.test(Object.keys(a.headers).join(' ') + (a.headers['set-cookie'] ?? '')) ? 'CRLF became a header' : null),
      });
    }
  }

  for (const escape of REDIRECT_ESCAPES) {
    add({ name: `redirect rule /categories/${escape}`, raw: request(`/categories/${escape}`), locationUnder: '/category' });
    add({
      name: `redirect rule /categories/${escape} (JSON)`,
      raw: request(`/categories/${escape}?x=1`, { accept: JSON_ACCEPT }),
      locationUnder: '/category',
    });
  }
  add({ name: 'redirect rule /home with an off-site query', raw: request('/home?next=//evil.example'), statuses: [301] });
  add({ name: 'redirect rule /home//evil.example', raw: request('/home//evil.example') });
  add({ name: 'redirect rule external /source', raw: request('/source'), statuses: [302] });

  for (const target of LOGIN_REDIRECTS) {
    const encoded = encodeURIComponent(target);
    const staysOnSite = (a: RawAnswer) => {
      for (const match of a.body.matchAll(/"redirectTo":"((?:[^"\\]|\\.)*)"/g)) {
        const value = JSON.parse(`"${match[1]}"`) as string;
        if (new URL(value, SITE).origin !== SITE || /^\/[/\\]/.test(value)) return `redirectTo ${value} leaves the site`;
      }
      return null;
    };
    add({ name: `sign-in redirect page ${target}`, raw: request(`/login?redirect=${encoded}`), statuses: [200], check: staysOnSite });
    add({
      name: `sign-in redirect payload ${target}`,
      raw: request(`/login/_payload.json?b&redirect=${encoded}`, { accept: JSON_ACCEPT }),
      statuses: [200],
      check: (a) => (a.body.includes('redirectTo') ? staysOnSite(a) : 'no redirectTo in the payload'),
    });
  }

  for (const source of SSRF_SOURCES) {
    add({
      name: `ssrf /_ipx/_/${source}`,
      raw: request(`/_ipx/_/${source}`, { accept: 'image/avif,image/webp,*/*' }),
      check: (a) => (a.status < 400 ? 'fetched a private source' : null),
    });
    add({
      name: `ssrf /_ipx/w_10/${encodeURIComponent(source)}`,
      raw: request(`/_ipx/w_10/${encodeURIComponent(source)}`),
      check: (a) => (a.status < 400 ? 'fetched a private source' : null),
    });
  }

  for (const modifier of IMAGE_MODIFIERS)
    add({ name: `image modifiers ${modifier}`, raw: request(`/_ipx/${modifier}/images/categories/git.jpg`, { accept: 'image/*' }) });

  for (const query of ICON_QUERIES)
    add({
      name: `icons query ${query.slice(0, 40)} (${query.length})`,
      raw: request(`/api/_nuxt_icon/lucide.json?${query}`, { accept: JSON_ACCEPT }),
    });
  for (const collection of ICON_COLLECTIONS)
    add({ name: `icons collection ${collection}`, raw: request(`/api/_nuxt_icon/${collection}?icons=sun`, { accept: JSON_ACCEPT }) });

  for (const method of METHODS) {
    for (const target of METHOD_TARGETS) {
      add({
        name: `method ${method} ${target}`,
        raw: request(target, { method, accept: JSON_ACCEPT, headers: [`Origin: ${SITE}`] }),
        check: (a) =>
          a.status === 405 && !a.headers.allow
            ? '405 without Allow'
            : a.status === 404 && ['POST', 'PUT', 'DELETE', 'PATCH'].includes(method) && target === '/category/git'
              ? '404 for a wrong method'
              : null,
      });
    }
  }
  add({ name: 'method GET on a POST-only API route', raw: request('/api/auth/logout', { accept: JSON_ACCEPT }), statuses: [405] });

  for (const [name, body, headers] of LOGIN_BODIES) {
    add({
      name: `login body ${name}`,
      raw: request('/api/auth/login', { method: 'POST', accept: JSON_ACCEPT, headers: loginHeaders(headers), body }),
    });
  }
  const big = `{"email":"a@b.c","password":"${'x'.repeat(2 * 1024 * 1024)}"}`;
  add({
    name: 'login body over the limit',
    raw: request('/api/auth/login', { method: 'POST', accept: JSON_ACCEPT, headers: loginHeaders(), body: big }),
    statuses: [413],
  });
  add({
    name: 'login body over the limit with Expect: 100-continue',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Expect: 100-continue', `Content-Length: ${big.length}`]),
    }),
    statuses: [413],
  });
  add({
    name: 'login body after 100 Continue',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Expect: 100-continue', 'Content-Length: 37']),
    }),
    afterContinue: '{"email":"nobody@b.c","password":"xy"}'.slice(0, 37),
    statuses: [400, 401, 429],
  });
  add({
    name: 'login gzip body',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Content-Encoding: gzip']),
      body: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]),
    }),
    statuses: [415],
  });
  add({
    name: 'login br body',
    raw: request('/api/auth/login', { method: 'POST', accept: JSON_ACCEPT, headers: loginHeaders(['Content-Encoding: br']), body: 'xxxx' }),
    statuses: [415],
  });
  add({
    name: 'login body longer than Content-Length',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Content-Length: 5']),
      body: '{"email":"a@b.c"}',
    }),
  });
  add({
    name: 'login body shorter than Content-Length',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Content-Length: 500']),
      body: '{"email":',
    }),
    incomplete: true,
  });
  add({
    name: 'login broken chunks',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Transfer-Encoding: chunked']),
      body: '5\r\n{"a":\r\nZZ\r\n',
    }),
  });
  add({
    name: 'login chunk size overflow',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Transfer-Encoding: chunked']),
      body: 'FFFFFFFFFFFFFFFFFF\r\nx\r\n0\r\n\r\n',
    }),
  });
  add({
    name: 'login without Origin',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: ['Content-Type: application/json'],
      body: '{"email":"a@b.c","password":"x"}',
    }),
    statuses: [403],
  });
  add({
    name: 'login from another origin',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: ['Origin: https://evil.example', 'Content-Type: application/json'],
      body: '{"email":"a@b.c","password":"x"}',
    }),
    statuses: [403],
  });
  add({
    name: 'login with Origin null',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: ['Origin: null', 'Content-Type: application/json'],
      body: '{}',
    }),
    statuses: [403],
  });
  add({
    name: 'saved recipe delete from another origin',
    raw: request('/api/saved/git-basics', { method: 'DELETE', accept: JSON_ACCEPT, headers: ['Origin: https://evil.example'] }),
    statuses: [401, 403],
  });
  add({
    name: 'saved recipe with a traversal id',
    raw: request('/api/saved/..%2f..%2fusers', { method: 'POST', accept: JSON_ACCEPT, headers: [`Origin: ${SITE}`] }),
  });
  add({
    name: 'session with a forged cookie',
    raw: request('/api/auth/session', { accept: JSON_ACCEPT, headers: [`Cookie: cookbook_session=${'A'.repeat(4000)}`] }),
    statuses: [200],
  });
  add({
    name: 'session with a malformed cookie header',
    raw: request('/api/auth/session', { accept: JSON_ACCEPT, headers: ['Cookie: ;;;=;cookbook_session=%ZZ;'] }),
    statuses: [200],
  });

  const payloadQueries = [
    '',
    `${'x'.repeat(6000)}`,
    '%ZZ',
    'b&redirect=%00',
    'b&__proto__[x]=1',
    'b&a[][][][][][][][][][][]=1',
    `b&${'a=1&'.repeat(2000)}`,
  ];
  for (const query of payloadQueries)
    add({
      name: `payload query ${query.slice(0, 30)} (${query.length})`,
      raw: request(`/category/git/_payload.json?${query}`, { accept: JSON_ACCEPT }),
    });
  for (const path of [
    '/nope/_payload.json',
    '/_payload.json/..',
    '/category/%00/_payload.json',
    '/category/git/_payload.json/x',
    '/category/git/_payload.json%00',
    '/_nuxt/builds/meta/..%2f..%2fcurrent.json',
    '/_nuxt/builds/meta/%00.json',
    '/_nuxt/builds/latest.json%2e%2e',
    '/_nuxt/.vite/manifest.json',
    '/_nuxt/_id_-Cbmz8Bvt.js.map',
  ]) {
    add({
      name: `payload and build file ${path}`,
      raw: request(path, { accept: JSON_ACCEPT }),
      check: (a) => (a.status === 200 && path.endsWith('.map') ? 'a source map was served' : null),
    });
  }

  // Protocol abuse.
  add({ name: 'a URL of 8 KiB', raw: request(`/category/${'a'.repeat(8 * 1024)}`) });
  add({ name: 'a URL of 20 KiB', raw: request(`/category/${'a'.repeat(20 * 1024)}`), statuses: [414, 431] });
  add({ name: 'a URL of 100 KiB', raw: request(`/${'a'.repeat(100 * 1024)}`), statuses: [414, 431] });
  add({ name: 'a query of 20 KiB', raw: request(`/?q=${'a'.repeat(20 * 1024)}`), statuses: [414, 431] });
  add({ name: 'a header of 20 KiB', raw: request('/', { headers: [`X-Big: ${'a'.repeat(20 * 1024)}`] }), statuses: [431] });
  add({ name: 'a cookie of 20 KiB', raw: request('/', { headers: [`Cookie: a=${'a'.repeat(20 * 1024)}`] }), statuses: [431] });
  add({ name: '200 headers', raw: request('/', { headers: Array.from({ length: 200 }, (_, i) => `X-H${i}: ${i}`) }) });
  add({
    name: '3000 headers',
    raw: request('/', { headers: Array.from({ length: 3000 }, (_, i) => `X-H${i}: ${i}`) }),
    statuses: [431, 400],
  });
  add({ name: 'a NUL in the path', raw: request('/category/git\0/x') });
  add({ name: 'a NUL in a header value', raw: request('/', { headers: ['X-A: a\0b'] }), statuses: [400] });
  add({
    name: 'a bare CR in a header value',
    raw: request('/', { headers: ['X-A: a\rSet-Cookie: pwned=1'] }),
    check: (a) => (a.headers['set-cookie']?.includes('pwned') ? 'header injection' : null),
  });
  add({
    name: 'a bare LF in a header value',
    raw: request('/', { headers: ['X-A: a\nSet-Cookie: pwned=1'] }),
    check: (a) => (a.headers['set-cookie']?.includes('pwned') ? 'header injection' : null),
  });
  add({
    name: 'CRLF in the path',
    raw: Buffer.from(`GET /a\r\nSet-Cookie: pwned=1 HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`),
  });
  add({
    name: 'a space in the path',
    raw: Buffer.from(`GET /a b HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`),
    statuses: [400],
  });
  add({ name: 'obs-fold', raw: request('/', { headers: ['X-A: 1', ' folded'] }), statuses: [400] });
  add({
    name: 'Content-Length with Transfer-Encoding',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Content-Length: 4', 'Transfer-Encoding: chunked']),
      body: '0\r\n\r\n',
    }),
    statuses: [400],
  });
  add({
    name: 'two different Content-Lengths',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Content-Length: 2', 'Content-Length: 3']),
      body: '{}x',
    }),
    statuses: [400],
  });
  add({
    name: 'a negative Content-Length',
    raw: request('/api/auth/login', { method: 'POST', accept: JSON_ACCEPT, headers: loginHeaders(['Content-Length: -1']), body: '{}' }),
    statuses: [400],
  });
  add({
    name: 'a Content-Length that is not a number',
    raw: request('/api/auth/login', { method: 'POST', accept: JSON_ACCEPT, headers: loginHeaders(['Content-Length: 1e3']), body: '{}' }),
    statuses: [400],
  });
  add({
    name: 'Transfer-Encoding gzip, chunked',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Transfer-Encoding: gzip, chunked']),
      body: '0\r\n\r\n',
    }),
  });
  add({
    name: 'Transfer-Encoding that is not chunked',
    raw: request('/api/auth/login', {
      method: 'POST',
      accept: JSON_ACCEPT,
      headers: loginHeaders(['Transfer-Encoding: identity']),
      body: '{}',
    }),
    statuses: [400, 501],
  });
  add({ name: 'a GET with a body', raw: request('/category/git', { body: 'hello' }) });
  add({ name: 'HTTP/1.0 without Host', raw: request('/', { version: 'HTTP/1.0', host: null }) });
  add({ name: 'HTTP/1.1 without Host', raw: request('/', { host: null }), statuses: [400] });
  add({ name: 'HTTP/1.1 without Host, JSON', raw: request('/api/categories', { host: null, accept: JSON_ACCEPT }), statuses: [400] });
  add({ name: 'HTTP/2.0 on the request line', raw: request('/', { version: 'HTTP/2.0' }), statuses: [400] });
  add({ name: 'HTTP/9.9 on the request line', raw: request('/', { version: 'HTTP/9.9' }), statuses: [400] });
  add({ name: 'HTTP/0.9 request line', raw: Buffer.from('GET /\r\n\r\n'), statuses: [400] });
  add({
    name: 'a request line of garbage',
    raw: Buffer.from('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n', 'latin1'),
    statuses: [400, 405],
  });
  add({ name: 'an absolute-form target', raw: request('http://evil.example/category/git') });
  add({ name: 'an absolute-form target with our host', raw: request(`http://${HOST}/category/git`) });
  add({ name: 'an asterisk-form target', raw: request('*', { method: 'OPTIONS' }) });
  add({ name: 'an authority-form CONNECT', raw: request('evil.example:443', { method: 'CONNECT' }), statuses: [405] });
  add({
    name: 'Upgrade: websocket',
    raw: request('/', { headers: ['Upgrade: websocket', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13'] }),
  });
  add({ name: 'Upgrade: h2c', raw: request('/', { headers: ['Upgrade: h2c', 'HTTP2-Settings: AAMAAABkAAQAAP__'] }) });
  add({ name: 'an HTTP/2 preface', raw: Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), statuses: [400, 405] });
  add({ name: 'Expect: 200-ok', raw: request('/', { headers: ['Expect: 200-ok'] }), statuses: [417] });
  add({ name: 'Expect: 100-continue on a GET', raw: request('/category/git', { headers: ['Expect: 100-continue'] }) });
  add({
    name: 'Range bomb',
    raw: request('/_nuxt/builds/latest.json', {
      accept: JSON_ACCEPT,
      headers: [`Range: bytes=${Array.from({ length: 500 }, (_, i) => `${i}-${i}`).join(',')}`],
    }),
  });
  add({ name: 'a Range past the end', raw: request('/favicon.ico', { headers: ['Range: bytes=999999999-'] }) });
  add({
    name: 'If-None-Match of 8 KiB',
    raw: request('/_nuxt/builds/latest.json', { accept: JSON_ACCEPT, headers: [`If-None-Match: ${'"x",'.repeat(2000)}"y"`] }),
  });
  add({ name: 'Accept-Encoding bomb', raw: request('/', { headers: [`Accept-Encoding: ${'gzip;q=0.5, '.repeat(1000)}br`] }) });
  add({ name: 'Accept of 8 KiB', raw: request('/', { headers: [`Accept: ${'text/html;q=0.1,'.repeat(500)}`] }) });
  add({
    name: 'an x-request-id with CRLF',
    raw: request('/', { headers: ['X-Request-Id: a%0d%0aSet-Cookie:pwned'] }),
    check: (a) => (a.headers['x-request-id']?.includes('pwned') ? 'an unsafe request id came back' : null),
  });
  add({
    name: 'an x-request-id of 4 KiB',
    raw: request('/', { headers: [`X-Request-Id: ${'a'.repeat(4096)}`] }),
    check: (a) => ((a.headers['x-request-id']?.length ?? 0) > 128 ? 'a huge request id came back' : null),
  });
  add({ name: 'a traceparent of garbage', raw: request('/', { headers: ['traceparent: 00-zzzz-yyyy-01'] }) });
  add({ name: 'Connection naming Host', raw: request('/', { headers: ['Connection: close, host, x-forwarded-for'] }) });
  add({ name: 'Transfer-Encoding in Connection', raw: request('/', { headers: ['Connection: close, transfer-encoding'] }) });

  const hostTricks = [
    'evil.example',
    'localhost:99999',
    'a b',
    '',
    `${HOST}@evil.example`,
    `${HOST}:80@evil.example`,
    '127.0.0.1:6379',
    '[::1]',
    'evil.example\\x',
    `${'a'.repeat(3000)}.example`,
    `${HOST}%0d%0aX-A:1`,
    'xn--80ak6aa92e.com',
  ];
  for (const host of hostTricks) {
    add({ name: `Host ${host.slice(0, 40)} (${host.length})`, raw: request('/category/git', { host }) });
    add({
      name: `Host ${host.slice(0, 40)} (${host.length}) on a redirect`,
      raw: request('/categories/git', { host }),
      locationUnder: '/category',
    });
  }
  add({ name: 'two Host headers', raw: request('/', { headers: ['Host: evil.example'] }) });
  add({
    name: 'X-Forwarded-Host claim on a redirect',
    raw: request('/categories/git', { headers: ['X-Forwarded-Host: evil.example', 'X-Forwarded-Proto: https'] }),
    locationUnder: '/category',
  });
  add({
    name: 'X-Forwarded-Proto claim',
    raw: request('/', { headers: ['X-Forwarded-Proto: https'] }),
    check: (a) => (a.headers['strict-transport-security'] ? 'HSTS from an untrusted claim' : null),
  });
  add({
    name: 'X-Original-URL claim',
    raw: request('/', { headers: ['X-Original-URL: /api/auth/session', 'X-Rewrite-URL: /admin'] }),
    statuses: [200],
  });

  return all;
}

// ---------------------------------------------------------------------------------------------
// The checks every answer gets
// ---------------------------------------------------------------------------------------------

const STACK_OR_INTERNALS = [
  /\bat [\w.<>]+ \(.*:\d+:\d+\)/, // a stack frame
  /node:internal|node_modules|\/work\/wt|\/home\/[a-z_][\w-]*\/|\/tmp\/[\w-]+\/|dist\/node|services\/\w+\/src/,
  /\b(FST_[A-Z_]+|HPE_[A-Z_]+|UND_ERR_[A-Z_]+|ECONNREFUSED|ECONNRESET|ERR_[A-Z_]{4,})\b/,
];

function problemsOf(c: Case, a: RawAnswer): string[] {
  const problems: string[] = [];
  if (a.status === 0) {
    if (!c.incomplete) problems.push('no answer');
    return problems;
  }
  if (a.status >= 500) problems.push(`status ${a.status}`);
  if (c.statuses && !c.statuses.includes(a.status)) problems.push(`status ${a.status}, expected ${c.statuses.join(' or ')}`);
  if (!a.headers['x-request-id']) problems.push('no x-request-id');
  if (a.headers['x-content-type-options'] !== 'nosniff') problems.push('no security headers');
  if (!a.closed) problems.push('socket left open after Connection: close');
  if (a.status >= 400) {
    const type = a.headers['content-type'] ?? '';
    if (type.startsWith('application/json')) {
      try {
        const body = JSON.parse(a.body) as Record<string, unknown>;
        if (
          body.statusCode !== a.status ||
          typeof body.statusMessage !== 'string' ||
          typeof body.message !== 'string' ||
          typeof body.url !== 'string'
        ) {
          problems.push(`not the error shape: ${a.body.slice(0, 120)}`);
        }
      } catch {
        problems.push(`JSON that does not parse: ${a.body.slice(0, 80)}`);
      }
    } else if (type.startsWith('text/html')) {
      if (!a.body.includes('data-error-page')) problems.push('an HTML error that is not the error page');
    } else if (a.body.length > 0 || !/^HEAD /.test(c.raw.toString('latin1', 0, 5))) {
      problems.push(`an error as ${type || 'no content type'}`);
    }
    // The `url` of the error shape echoes the request; what else the body says is checked.
    const said = a.body.replace(/"url":"(?:[^"\\]|\\.)*"/, '"url":""');
    for (const pattern of STACK_OR_INTERNALS) if (pattern.test(said)) problems.push(`body shows ${pattern.exec(said)?.[0]}`);
  }
  const location = a.headers.location;
  if (location !== undefined && !EXTERNAL_REDIRECTS.has(location)) {
    const resolved = new URL(location, `${SITE}/some/page`);
    if (resolved.origin !== SITE || /^[/\\]{2}/.test(location) || /^[a-z][\w+.-]*:/i.test(location))
      problems.push(`off-site Location ${location}`);
    const underRule = (path: string) => path === c.locationUnder || path.startsWith(`${c.locationUnder}/`);
    if (c.locationUnder && !underRule(resolved.pathname) && resolved.pathname !== browserResolution(c.raw)) {
      problems.push(`Location ${location} resolves outside ${c.locationUnder}`);
    }
  }
  const own = c.check?.(a);
  if (own) problems.push(own);
  return problems;
}

async function inPool<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await run(items[index]!);
      }
    }),
  );
  return results;
}

describe('hostile requests against the production stack', () => {
  let stack: Stack;
  let port: number;
  const all = cases();
  const answers = new Map<string, RawAnswer>();

  beforeAll(async () => {
    stack = await startStack();
    port = Number(new URL(stack.url).port);
  });
  afterAll(() => stack?.stop());

  it('has at least 300 distinct cases', () => {
    expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
    expect(new Set(all.map((c) => c.raw.toString('latin1'))).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(300);
  });

  it('answers every one within the rules', { timeout: 90_000 }, async () => {
    const started = Date.now();
    const results = await inPool(all, 8, async (c) => {
      const answer = await rawRequest(port, c.raw, {
        timeoutMs: c.incomplete ? 1500 : 8000,
        closeWaitMs: 1000,
        ...(c.afterContinue ? { afterContinue: c.afterContinue } : {}),
      });
      answers.set(c.name, answer);
      return { name: c.name, status: answer.status, problems: problemsOf(c, answer) };
    });
    const statuses = new Map<number, number>();
    for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    console.log(
      `bad input: ${results.length} requests in ${Date.now() - started} ms; statuses ${[...statuses.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
    expect(results.filter((r) => r.problems.length > 0).map((r) => `${r.name}: ${r.problems.join('; ')}`)).toEqual([]);
  });

  it('wrote an access line at the gateway for every answer', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const logged = new Set<string>();
    for (const line of stack.logs('gateway')) {
      if (!line.includes('"msg":"request"')) continue;
      const id = /"reqId":"([^"]+)"/.exec(line)?.[1];
      if (id) logged.add(id);
    }
    const missing = [...answers.entries()]
      .filter(([, a]) => a.status > 0 && !logged.has(a.headers['x-request-id'] ?? ''))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('logged no client fault as an ERROR', () => {
    const errors = (['gateway', 'renderer', 'image', 'icons'] as const).flatMap((name) =>
      stack
        .logs(name)
        .filter((line) => /"level":(50|60)/.test(line))
        .map((line) => {
          const id = /"reqId":"([^"]+)"/.exec(line)?.[1] ?? 'none';
          const access = stack.logs('gateway').find((l) => l.includes(id) && l.includes('"msg":"request"')) ?? '';
          return `${name}: ${line.slice(0, 3000)} for ${access.slice(0, 400)}`;
        }),
    );
    expect(errors).toEqual([]);
  });

  it('leaves all four services healthy and the gateway ready', async () => {
    for (const name of ['gateway', 'renderer', 'image', 'icons'] as const) {
      const response = await fetch(`${stack.serviceUrl(name)}/healthz`);
      expect(response.status, name).toBe(200);
    }
    const ready = await fetch(`${stack.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { status: string }).status).toBe('ready');
    const page = await fetch(`${stack.url}/category/git`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
  });
});
