/**
 * Build freshness (docs/spec.md §4): every BUILD_CHECK_INTERVAL_MS (the app config may shorten it) the
 * client asks `{assetsPrefix}builds/latest.json?{timestamp}` for the current build id; a payload
 * answered by another build counts too, as does the store no longer knowing our build. Once the
 * build has changed, polling stops and the next navigation is a full page load. Browser-safe.
 */
import { latestBuildPath } from '@tern/shared/url-space/build-files';
import { BUILD_CHECK_INTERVAL_MS } from '../shared/app-config.js';

export type OutdatedSource = 'poll' | 'payload' | 'manifest';

export interface FreshnessMonitorOptions {
  currentId: string;
  intervalMs: number;
  /** The id of the newest build, or null when it cannot be told now. */
  fetchLatestId: () => Promise<string | null>;
  schedule?: (run: () => void, ms: number) => () => void;
}

export interface FreshnessMonitor {
  start(): void;
  stop(): void;
  /** A build id seen somewhere (a payload's header): another id means this page is outdated. */
  report(buildId: string, source: OutdatedSource): void;
  markOutdated(source: OutdatedSource): void;
  readonly outdated: OutdatedSource | null;
  /** How many times latest.json was asked (tests and logs). */
  readonly checks: number;
}

const defaultSchedule = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export function createFreshnessMonitor(options: FreshnessMonitorOptions): FreshnessMonitor {
  const schedule = options.schedule ?? defaultSchedule;
  let cancel: (() => void) | null = null;
  let outdated: OutdatedSource | null = null;
  let checks = 0;
  let running = false;

  const next = () => {
    if (!running || outdated) return;
    cancel = schedule(() => void check(), options.intervalMs);
  };
  async function check(): Promise<void> {
    cancel = null;
    checks += 1;
    let latest: string | null = null;
    try {
      latest = await options.fetchLatestId();
    } catch {
      // Offline or the gateway is away: try again at the next interval.
    }
    if (latest && latest !== options.currentId) monitor.markOutdated('poll');
    next();
  }

  const monitor: FreshnessMonitor = {
    start() {
      if (running) return;
      running = true;
      next();
    },
    stop() {
      running = false;
      cancel?.();
      cancel = null;
    },
    report(buildId, source) {
      if (buildId && buildId !== options.currentId) monitor.markOutdated(source);
    },
    markOutdated(source) {
      if (outdated) return;
      outdated = source;
      monitor.stop();
    },
    get outdated() {
      return outdated;
    },
    get checks() {
      return checks;
    },
  };
  return monitor;
}

/** latest.json's id, asked past every cache (the timestamp) and at low priority. */
export async function fetchLatestBuildId(assetsPrefix: string, now = Date.now()): Promise<string | null> {
  const init: RequestInit & { priority?: string } = { cache: 'no-store', headers: { accept: 'application/json' }, priority: 'low' };
  const response = await fetch(`${latestBuildPath(assetsPrefix)}?${now}`, init);
  if (!response.ok) return null;
  const body = (await response.json().catch(() => null)) as { id?: unknown } | null;
  return typeof body?.id === 'string' ? body.id : null;
}

let appMonitor: FreshnessMonitor | null = null;
let early: OutdatedSource | null = null;

/** Starts the app's monitor (after hydration). */
export function startBuildFreshness(config: { buildId: string; assetsPrefix: string; buildCheckIntervalMs?: number }): FreshnessMonitor {
  appMonitor?.stop();
  appMonitor = createFreshnessMonitor({
    currentId: config.buildId,
    intervalMs: config.buildCheckIntervalMs ?? BUILD_CHECK_INTERVAL_MS,
    fetchLatestId: () => fetchLatestBuildId(config.assetsPrefix),
  });
  if (early) appMonitor.markOutdated(early);
  appMonitor.start();
  return appMonitor;
}

export function reportBuildId(buildId: string, source: OutdatedSource): void {
  appMonitor?.report(buildId, source);
}

export function markBuildOutdated(source: OutdatedSource): void {
  if (appMonitor) appMonitor.markOutdated(source);
  else early ??= source;
}

/** True once a newer build is known: the next navigation must load the whole page. */
export function isBuildOutdated(): boolean {
  return (appMonitor?.outdated ?? early) !== null;
}
