/**
 * The main thread's tasks while a page loads and hydrates, read from a real Chromium performance
 * trace rather than from Lighthouse's simulation (which replays every task 4x longer, so on a
 * busy machine its total blocking time says as much about the neighbours as about the page).
 *
 * One load per call, in a fresh browser context: the trace runs from before the navigation until
 * the network has been idle for 500 ms and then SETTLE_MS more, so hydration and the work queued
 * after it (link preloading, build freshness) are in it; a page not hydrated by then is an error. Optionally under a CPU slowdown
 * of the DevTools protocol (Emulation.setCPUThrottlingRate), which, unlike Lighthouse's, runs.
 */
import type { Browser } from 'playwright-core';

/** A task is long (it blocks input) from 50 ms on; what goes beyond counts as blocking time. */
export const LONG_TASK_MS = 50;
const SETTLE_MS = 1500;
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'loading'];

export interface MainThreadFigures {
  /** Tasks of 50 ms or more on the page's main thread. */
  longTasks: number;
  /** The sum of what each task took beyond 50 ms: total blocking time as measured, not simulated. */
  blockingMs: number;
  /** The longest task. */
  longestMs: number;
  /** Every task's time summed (main-thread work). */
  busyMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; beginData?: { url?: string }; data?: { url?: string } };
}

/** The renderer main thread that parsed `url`'s document: `pid:tid`. */
function pageThread(events: TraceEvent[], url: string): string | null {
  const mainThreads = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const parse = events.find(
    (e) => e.name === 'ParseHTML' && mainThreads.has(`${e.pid}:${e.tid}`) && (e.args?.beginData?.url ?? '').startsWith(url),
  );
  return parse ? `${parse.pid}:${parse.tid}` : null;
}

/** Figures of the top-level tasks (`RunTask`) of the page's main thread in a trace. */
export function mainThreadFigures(events: TraceEvent[], url: string): MainThreadFigures {
  const thread = pageThread(events, url);
  if (!thread) throw new Error(`the trace has no main thread that parsed ${url}`);
  const tasks = events
    // RunTask is the scheduler's top-level task (ThreadControllerImpl::RunTask wraps the same ones).
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === thread)
    .map((e) => (e.dur ?? 0) / 1000);
  const long = tasks.filter((ms) => ms >= LONG_TASK_MS);
  return {
    longTasks: long.length,
    blockingMs: long.reduce((sum, ms) => sum + ms - LONG_TASK_MS, 0),
    longestMs: Math.max(0, ...tasks),
    busyMs: tasks.reduce((sum, ms) => sum + ms, 0),
  };
}

export interface TraceOptions {
  userAgent: string;
  viewport: { width: number; height: number };
  /** A `name=value` session cookie for signed-in pages. */
  cookie?: string;
  /** DevTools' CPU slowdown (1: none). */
  cpuSlowdown: number;
}

/** Loads `url` once in a new context of `browser` with a trace running; the page's main-thread figures. */
export async function traceLoad(browser: Browser, url: string, options: TraceOptions): Promise<MainThreadFigures> {
  const context = await browser.newContext({ userAgent: options.userAgent, viewport: options.viewport, isMobile: true, hasTouch: true });
  try {
    if (options.cookie) {
      const [name, ...value] = options.cookie.split('=');
      await context.addCookies([{ name: name!, value: value.join('='), url }]);
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpuSlowdown });
    await browser.startTracing(page, { categories: CATEGORIES });
    // No polling of the page while the trace runs: every evaluation would be a task of its own.
    await page.goto(url, { waitUntil: 'networkidle' });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    const hydrated = await page.evaluate(() => document.documentElement.hasAttribute('data-hydrated'));
    if (!hydrated) throw new Error(`${url} had not hydrated by the end of its trace`);
    return mainThreadFigures(trace.traceEvents, url);
  } finally {
    await context.close();
  }
}
