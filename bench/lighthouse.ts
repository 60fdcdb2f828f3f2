/**
 * `npm run bench:lighthouse`: Lighthouse (mobile profile, simulated throttling) on `/`,
 * `/category/git`, `/login` and `/saved` (signed in as the demo account) of the production build,
 * in Debian's Chromium, against issue 15's goals: performance >= 99, accessibility and best
 * practices = 100, LCP <= 1.5 s, unused JavaScript <= 25 KB. Also prints the first-load JS of each
 * page as served (bench/support/first-load-js.ts). Exits 1 when a goal is missed.
 *
 * Starts its own stack (local processes, embedded store) unless LIGHTHOUSE_ORIGIN names one
 * already running (e.g. another build, for a before/after). LIGHTHOUSE_RUNS (default 3) runs per
 * page, interleaved across pages; the median is reported. CHROMIUM_PATH overrides the browser;
 * LIGHTHOUSE_JSON_DIR keeps each run's full report there, to see what a figure is made of.
 * Needs the `lighthouse` npm package (a dev dependency; LIGHTHOUSE_MODULE may point elsewhere).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium as playwright } from 'playwright-core';
import { startLocalStack } from '../scripts/local-stack.js';
import type { Stack } from '../scripts/stack-types.js';
import { CHROMIUM_ARGS } from './support/chromium-args.js';
import { FIRST_LOAD_JS_BUDGET_BYTES, kib, measureFirstLoadJs } from './support/first-load-js.js';

const PAGES = [
  { path: '/', signedIn: false },
  { path: '/category/git', signedIn: false },
  { path: '/login', signedIn: false },
  { path: '/saved', signedIn: true },
];
const DEMO = { email: 'demo@cookbook.test', password: 'cookbook-demo' };
/** Lighthouse's mobile Chrome, without "Chrome-Lighthouse" (isbot would call that a crawler). */
const MOBILE_PERSON_UA =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

const GOALS = { performance: 99, accessibility: 100, bestPractices: 100, lcpMs: 1500, unusedJsBytes: 25 * 1024 };

/** The little of Lighthouse's API and result this script reads. */
interface LighthouseResult {
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<
    string,
    { numericValue?: number; details?: { overallSavingsBytes?: number; items?: Record<string, unknown>[] } } | undefined
  >;
  runtimeError?: { message: string };
  finalDisplayedUrl?: string;
}
type Lighthouse = (
  url: string,
  flags: Record<string, unknown>,
  config?: Record<string, unknown>,
) => Promise<{ lhr: LighthouseResult } | undefined>;

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  unusedJsBytes: number;
  totalJsBytes: number;
}

async function loadLighthouse(): Promise<Lighthouse> {
  const name = process.env.LIGHTHOUSE_MODULE ?? 'lighthouse';
  try {
    return ((await import(name)) as { default: Lighthouse }).default;
  } catch (error) {
    process.stderr.write(`bench:lighthouse needs the lighthouse package (npm install --save-dev lighthouse): ${String(error)}\n`);
    process.exit(2);
  }
}

/** Debian's Chromium with a DevTools port for Lighthouse; resolves once the port is known. */
async function launchChromium(profile: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`chromium exited with ${code}`)));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return { port, child };
}

async function signIn(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(DEMO),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('cookbook_session='));
  if (!response.ok || !cookie) throw new Error(`signing in as ${DEMO.email} answered ${response.status}`);
  return cookie.split(';')[0]!;
}

/**
 * Gives the browser Lighthouse drives the session cookie (`null`: takes every cookie away).
 * Chromium drops a Cookie header passed in Lighthouse's extraHeaders, so the signed-in page
 * would be measured as the login page it redirects to.
 */
async function setSessionCookie(port: number, origin: string, session: string | null): Promise<void> {
  // A CDP connection only: closing it leaves the browser running.
  const browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    if (!session) return await context.clearCookies();
    const [name, ...value] = session.split('=');
    await context.addCookies([{ name: name!, value: value.join('='), url: origin }]);
  } finally {
    await browser.close();
  }
}

function figuresOf(lhr: LighthouseResult): Figures {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    unusedJsBytes: lhr.audits['unused-javascript']?.details?.overallSavingsBytes ?? 0,
    totalJsBytes: requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + Number(r.transferSize ?? 0), 0),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const lighthouse = await loadLighthouse();
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const profile = await mkdtemp(join(tmpdir(), 'lighthouse-chromium-'));
let stack: Stack | undefined;
let chromium: ChildProcess | undefined;
let missed = 0;
try {
  let origin = process.env.LIGHTHOUSE_ORIGIN;
  if (!origin) {
    stack = await startLocalStack({ env: { LOG_LEVEL: 'warn', USERS_FILE: join(profile, 'users.json') } });
    origin = stack.url;
  }
  const session = await signIn(origin);
  const launched = await launchChromium(profile);
  chromium = launched.child;

  const results = new Map<string, Figures[]>(PAGES.map((p) => [p.path, []]));
  for (let round = 0; round < runs; round++) {
    for (const page of PAGES) {
      const flags = {
        port: launched.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        formFactor: 'mobile',
        throttlingMethod: 'simulate',
        emulatedUserAgent: MOBILE_PERSON_UA,
      };
      await setSessionCookie(launched.port, origin, page.signedIn ? session : null);
      // A trace Lighthouse could not read (NO_NAVSTART and the like) is retried, twice at most.
      let result: Awaited<ReturnType<Lighthouse>>;
      for (let attempt = 1; ; attempt++) {
        result = await lighthouse(`${origin}${page.path}`, flags);
        if (result && !result.lhr.runtimeError) break;
        const reason = result?.lhr.runtimeError?.message ?? 'no result';
        if (attempt === 3) throw new Error(`lighthouse failed on ${page.path}: ${reason}`);
        process.stderr.write(`lighthouse: ${page.path}: ${reason}; again\n`);
      }
      // A redirect (a session the page did not accept) would measure another page.
      const measured = new URL(result.lhr.finalDisplayedUrl ?? '').pathname;
      if (measured !== page.path) throw new Error(`lighthouse measured ${measured} instead of ${page.path}`);
      results.get(page.path)!.push(figuresOf(result.lhr));
      const keep = process.env.LIGHTHOUSE_JSON_DIR;
      if (keep) {
        await mkdir(keep, { recursive: true });
        await writeFile(join(keep, `${page.path.replace(/\W+/g, '_') || 'home'}-${round + 1}.json`), JSON.stringify(result.lhr, null, 1));
      }
    }
  }

  const firstLoads = await Promise.all(
    PAGES.map((p) => measureFirstLoadJs(origin, p.path, { 'user-agent': MOBILE_PERSON_UA, ...(p.signedIn ? { cookie: session } : {}) })),
  );
  process.stdout.write(`\nLighthouse, mobile, simulated throttling; median of ${runs} run(s) per page (${origin})\n`);
  const header = ['page', 'perf', 'a11y', 'best-pr.', 'LCP', 'unused JS', 'JS (LH)', 'first-load JS br', 'goals'];
  const rows = PAGES.map((page, i) => {
    const all = results.get(page.path)!;
    const pick = (key: keyof Figures) => median(all.map((f) => f[key]));
    const f: Figures = {
      performance: pick('performance'),
      accessibility: pick('accessibility'),
      bestPractices: pick('bestPractices'),
      lcpMs: pick('lcpMs'),
      unusedJsBytes: pick('unusedJsBytes'),
      totalJsBytes: pick('totalJsBytes'),
    };
    const firstLoad = firstLoads[i]!.total;
    const misses = [
      f.performance < GOALS.performance && 'perf',
      f.accessibility < GOALS.accessibility && 'a11y',
      f.bestPractices < GOALS.bestPractices && 'best-practices',
      f.lcpMs > GOALS.lcpMs && 'LCP',
      f.unusedJsBytes > GOALS.unusedJsBytes && 'unused JS',
      page.signedIn ? false : firstLoad > FIRST_LOAD_JS_BUDGET_BYTES && 'first-load JS',
    ].filter(Boolean);
    missed += misses.length;
    return [
      page.path + (page.signedIn ? ' (signed in)' : ''),
      String(f.performance),
      String(f.accessibility),
      String(f.bestPractices),
      `${(f.lcpMs / 1000).toFixed(2)} s`,
      kib(f.unusedJsBytes),
      kib(f.totalJsBytes),
      kib(firstLoad),
      misses.length ? `MISSED: ${misses.join(', ')}` : 'met',
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')}\n`);
  process.stdout.write(
    `goals: performance >= ${GOALS.performance}, accessibility = best practices = 100, LCP <= ${GOALS.lcpMs / 1000} s, unused JS <= ${kib(GOALS.unusedJsBytes)}, first-load JS <= ${kib(FIRST_LOAD_JS_BUDGET_BYTES)}\n`,
  );
} finally {
  if (chromium && chromium.exitCode === null) {
    const exited = new Promise((resolve) => chromium!.once('exit', resolve));
    chromium.kill();
    await exited;
  }
  await stack?.stop();
  await rm(profile, { recursive: true, force: true, maxRetries: 3 });
}
process.exitCode = missed ? 1 : 0;
