/**
 * `npm run bench:lighthouse`: Lighthouse (mobile profile, simulated throttling) on `/`, a category
 * page, a recipe page, a search page, `/login` and `/saved` (signed in as the demo account) of the
 * production build, in Debian's Chromium, against issues 15's and 31's goals: performance >= 99,
 * accessibility and best practices = 100, total blocking time <= 50 ms, LCP <= 1.5 s, unused
 * JavaScript <= 25 KB. Also prints SEO, the first-load JS of each page as served
 * (bench/support/first-load-js.ts) and, from real Chromium traces (bench/support/long-tasks.ts),
 * the main thread's long tasks as they ran, unthrottled and under DevTools' 4x CPU slowdown: the
 * machine is shared, and Lighthouse's simulation multiplies whatever the neighbours cost too.
 * Exits 1 when a goal is missed.
 *
 * Starts its own stack (local processes, embedded store) unless LIGHTHOUSE_ORIGIN names one
 * already running (e.g. another build, for a before/after). LIGHTHOUSE_RUNS (default 3) runs per
 * page, interleaved across pages; the median is reported. LIGHTHOUSE_PAGES (comma-separated paths,
 * e.g. `/,/category/git`) measures only those of the pages. CHROMIUM_PATH overrides the browser;
 * LIGHTHOUSE_JSON_DIR keeps each run's full report there, to see what a figure is made of.
 * Needs the `lighthouse` npm package (a dev dependency; LIGHTHOUSE_MODULE may point elsewhere).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium as playwright } from 'playwright-core';
import { startLocalStack } from '@tern/cli/local-stack';
import type { Stack } from '@tern/cli/stack-types';
import { CHROMIUM_ARGS } from './support/chromium-args.js';
import { FIRST_LOAD_JS_BUDGET_BYTES, kib, measureFirstLoadJs } from './support/first-load-js.js';
import { traceLoad, type MainThreadFigures } from './support/long-tasks.js';

const ALL_PAGES = [
  { path: '/', signedIn: false },
  { path: '/category/git', signedIn: false },
  { path: '/recipes/find-a-regression-with-bisect', signedIn: false },
  { path: '/search?q=git', signedIn: false },
  { path: '/login', signedIn: false },
  { path: '/saved', signedIn: true },
];
const chosen = process.env.LIGHTHOUSE_PAGES?.split(',').map((p) => p.trim());
const PAGES = chosen ? ALL_PAGES.filter((p) => chosen.includes(p.path)) : ALL_PAGES;
if (PAGES.length === 0) throw new Error(`LIGHTHOUSE_PAGES names none of ${ALL_PAGES.map((p) => p.path).join(', ')}`);
const DEMO = { email: 'demo@cookbook.test', password: 'cookbook-demo' };
/** Lighthouse's mobile Chrome, without "Chrome-Lighthouse" (isbot would call that a crawler). */
const MOBILE_PERSON_UA =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

const GOALS = { performance: 99, accessibility: 100, bestPractices: 100, tbtMs: 50, lcpMs: 1500, unusedJsBytes: 25 * 1024 };
/** Lighthouse's mobile screen (moto g power), for the traced loads. */
const MOBILE_VIEWPORT = { width: 412, height: 823 };
/** The slowdown Lighthouse's simulation assumes for a mid-range phone, here applied for real. */
const PHONE_CPU_SLOWDOWN = 4;

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
  seo: number;
  tbtMs: number;
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
    seo: score('seo'),
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
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

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
const labelOf = (page: (typeof PAGES)[number]) => page.path + (page.signedIn ? ' (signed in)' : '');

function medianFigures(all: Figures[]): Figures {
  const pick = (key: keyof Figures) => median(all.map((f) => f[key]));
  return {
    performance: pick('performance'),
    accessibility: pick('accessibility'),
    bestPractices: pick('bestPractices'),
    seo: pick('seo'),
    tbtMs: pick('tbtMs'),
    lcpMs: pick('lcpMs'),
    unusedJsBytes: pick('unusedJsBytes'),
    totalJsBytes: pick('totalJsBytes'),
  };
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  for (const row of [header, ...rows]) process.stdout.write(`${row.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')}\n`);
}

/** Per page, the median trace figures unthrottled and under the phone's CPU slowdown. */
async function traceMainThread(port: number, origin: string, session: string, runs: number): Promise<Map<string, MainThreadFigures[]>> {
  const browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const figures = new Map<string, MainThreadFigures[]>();
    for (const page of PAGES) {
      const perSlowdown: MainThreadFigures[] = [];
      for (const cpuSlowdown of [1, PHONE_CPU_SLOWDOWN]) {
        const all: MainThreadFigures[] = [];
        for (let run = 0; run < runs; run++) {
          const options = {
            userAgent: MOBILE_PERSON_UA,
            viewport: MOBILE_VIEWPORT,
            cpuSlowdown,
            ...(page.signedIn ? { cookie: session } : {}),
          };
          all.push(await traceLoad(browser, `${origin}${page.path}`, options));
        }
        const pick = (key: keyof MainThreadFigures) => median(all.map((f) => f[key]));
        perSlowdown.push({
          longTasks: pick('longTasks'),
          blockingMs: pick('blockingMs'),
          longestMs: pick('longestMs'),
          busyMs: pick('busyMs'),
        });
      }
      figures.set(page.path, perSlowdown);
    }
    return figures;
  } finally {
    await browser.close();
  }
}

const loadBefore = loadAverage();
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
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
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
      const final = new URL(result.lhr.finalDisplayedUrl ?? '');
      const measured = final.pathname + final.search;
      if (measured !== page.path) throw new Error(`lighthouse measured ${measured} instead of ${page.path}`);
      results.get(page.path)!.push(figuresOf(result.lhr));
      const keep = process.env.LIGHTHOUSE_JSON_DIR;
      if (keep) {
        await mkdir(keep, { recursive: true });
        await writeFile(join(keep, `${page.path.replace(/\W+/g, '_') || 'home'}-${round + 1}.json`), JSON.stringify(result.lhr, null, 1));
      }
    }
  }

  const traces = await traceMainThread(launched.port, origin, session, runs);
  const firstLoads = await Promise.all(
    PAGES.map((p) => measureFirstLoadJs(origin, p.path, { 'user-agent': MOBILE_PERSON_UA, ...(p.signedIn ? { cookie: session } : {}) })),
  );
  process.stdout.write(`\nLighthouse, mobile, simulated throttling; median of ${runs} run(s) per page (${origin})\n`);
  const header = ['page', 'perf', 'a11y', 'best-pr.', 'SEO', 'TBT', 'LCP', 'unused JS', 'first-load JS br', 'goals'];
  const rows = PAGES.map((page, i) => {
    const all = results.get(page.path)!;
    const f = medianFigures(all);
    const firstLoad = firstLoads[i]!.total;
    const misses = [
      f.performance < GOALS.performance && 'perf',
      f.accessibility < GOALS.accessibility && 'a11y',
      f.bestPractices < GOALS.bestPractices && 'best-practices',
      f.tbtMs > GOALS.tbtMs && 'TBT',
      f.lcpMs > GOALS.lcpMs && 'LCP',
      f.unusedJsBytes > GOALS.unusedJsBytes && 'unused JS',
      page.signedIn ? false : firstLoad > FIRST_LOAD_JS_BUDGET_BYTES && 'first-load JS',
    ].filter(Boolean);
    missed += misses.length;
    return [
      labelOf(page),
      String(f.performance),
      String(f.accessibility),
      String(f.bestPractices),
      String(f.seo),
      `${Math.round(f.tbtMs)} ms`,
      `${(f.lcpMs / 1000).toFixed(2)} s`,
      kib(f.unusedJsBytes),
      kib(firstLoad),
      misses.length ? `MISSED: ${misses.join(', ')}` : 'met',
    ];
  });
  printTable(header, rows);
  process.stdout.write(
    `goals: performance >= ${GOALS.performance}, accessibility = best practices = 100, TBT <= ${GOALS.tbtMs} ms, LCP <= ${GOALS.lcpMs / 1000} s, unused JS <= ${kib(GOALS.unusedJsBytes)}, first-load JS <= ${kib(FIRST_LOAD_JS_BUDGET_BYTES)}\n`,
  );
  process.stdout.write('each run, in order (performance / TBT):\n');
  for (const page of PAGES) {
    const all = results.get(page.path)!;
    process.stdout.write(`  ${labelOf(page)}: ${all.map((f) => `${f.performance} / ${Math.round(f.tbtMs)} ms`).join(', ')}\n`);
  }
  process.stdout.write(
    `\nMain thread as it ran (Chromium traces, load to network idle + 1.5 s), median of ${runs}: long tasks (>= 50 ms), blocking time (their sum beyond 50 ms), longest task, all tasks\n`,
  );
  const traceRow = (figures: MainThreadFigures) =>
    `${figures.longTasks}, ${Math.round(figures.blockingMs)} ms, ${Math.round(figures.longestMs)} ms, ${Math.round(figures.busyMs)} ms`;
  printTable(
    ['page', 'unthrottled', `CPU ${PHONE_CPU_SLOWDOWN}x slower`],
    PAGES.map((page) => {
      const [unthrottled, slowed] = traces.get(page.path)!;
      return [labelOf(page), traceRow(unthrottled!), traceRow(slowed!)];
    }),
  );
  process.stdout.write(`load average (1, 5, 15 min): before ${loadBefore}, after ${loadAverage()}\n`);
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
