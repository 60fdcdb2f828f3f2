/**
 * Keeps a set of child processes running: one that exits is started again after a backoff while
 * the others keep serving; a service that keeps crashing fast is given up on, loudly, and the rest
 * stay up. Only `stop()` (the launcher's Ctrl-C/SIGTERM) stops everything. No process or timer
 * globals: the launcher passes them in, the tests pass fakes.
 */

/** The part of a ChildProcess the supervisor uses. */
export interface SupervisedChild {
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

export interface SupervisorPolicy {
  /** First restart delay; doubles on each fast crash up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A run shorter than this counts as a fast crash. */
  fastCrashMs: number;
  /** After this many fast crashes in a row the service is given up on. */
  maxFastCrashes: number;
  /** How long stop() waits for a child after SIGTERM before SIGKILL. */
  killAfterMs: number;
}

export const DEFAULT_POLICY: SupervisorPolicy = {
  baseDelayMs: 250,
  maxDelayMs: 10_000,
  fastCrashMs: 10_000,
  maxFastCrashes: 5,
  killAfterMs: 10_000,
};

export type SupervisorEvent =
  | { kind: 'exited'; name: string; code: number | null; signal: NodeJS.Signals | null; restartInMs: number }
  | { kind: 'restarted'; name: string; attempt: number }
  | { kind: 'gave-up'; name: string; crashes: number };

export interface SupervisorOptions<Name extends string> {
  names: readonly Name[];
  start(name: Name): SupervisedChild;
  onEvent(event: SupervisorEvent): void;
  policy?: Partial<SupervisorPolicy>;
  now?: () => number;
  schedule?: (run: () => void, ms: number) => { unref?(): unknown };
}

/** How stop() ended: every child exited cleanly, or some had to be killed or failed. */
export interface StopOutcome {
  clean: boolean;
  gaveUp: string[];
}

export interface Supervisor {
  stop(): Promise<StopOutcome>;
  /** Names given up on after repeated fast crashes. */
  readonly gaveUp: ReadonlySet<string>;
}

export function restartDelay(fastCrashes: number, policy: SupervisorPolicy): number {
  return Math.min(policy.baseDelayMs * 2 ** Math.max(0, fastCrashes - 1), policy.maxDelayMs);
}

export function supervise<Name extends string>(options: SupervisorOptions<Name>): Supervisor {
  const policy = { ...DEFAULT_POLICY, ...options.policy };
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? ((run, ms) => setTimeout(run, ms));
  const children = new Map<Name, SupervisedChild>();
  const fastCrashes = new Map<Name, number>();
  const gaveUp = new Set<string>();
  let stopping = false;

  const launch = (name: Name) => {
    const child = options.start(name);
    const startedAt = now();
    children.set(name, child);
    child.once('exit', (code, signal) => {
      if (stopping) return;
      const crashes = now() - startedAt < policy.fastCrashMs ? (fastCrashes.get(name) ?? 0) + 1 : 0;
      fastCrashes.set(name, crashes);
      if (crashes >= policy.maxFastCrashes) {
        gaveUp.add(name);
        options.onEvent({ kind: 'gave-up', name, crashes });
        return;
      }
      const restartInMs = crashes === 0 ? policy.baseDelayMs : restartDelay(crashes, policy);
      options.onEvent({ kind: 'exited', name, code, signal, restartInMs });
      schedule(() => {
        if (stopping) return;
        launch(name);
        options.onEvent({ kind: 'restarted', name, attempt: crashes + 1 });
      }, restartInMs);
    });
  };

  for (const name of options.names) launch(name);

  return {
    gaveUp,
    stop() {
      stopping = true;
      const running = [...children.values()].filter((child) => child.exitCode === null && child.signalCode === null);
      const exits = running.map(
        (child) =>
          new Promise<boolean>((resolve) => {
            child.once('exit', (code) => resolve(code === 0));
            child.kill('SIGTERM');
            schedule(() => {
              if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            }, policy.killAfterMs).unref?.();
          }),
      );
      return Promise.all(exits).then((results) => ({ clean: results.every(Boolean) && gaveUp.size === 0, gaveUp: [...gaveUp] }));
    },
  };
}
