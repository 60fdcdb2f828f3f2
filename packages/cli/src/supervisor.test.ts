import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { supervise, type SupervisedChild, type SupervisorEvent } from './supervisor.js';

/** A child that exits when told to, or when killed (0 on SIGTERM, like the services). */
class FakeChild extends EventEmitter implements SupervisedChild {
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  signals: NodeJS.Signals[] = [];
  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    this.signals.push(signal);
    this.exit(signal === 'SIGTERM' ? 0 : null, signal === 'SIGTERM' ? null : signal);
    return true;
  }
  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

function harness() {
  let clock = 0;
  const timers: { at: number; run: () => void }[] = [];
  const started: Record<string, FakeChild[]> = {};
  const events: SupervisorEvent[] = [];
  const supervisor = supervise({
    names: ['gateway', 'image'] as const,
    start(name) {
      const child = new FakeChild();
      (started[name] ??= []).push(child);
      return child;
    },
    onEvent: (event) => events.push(event),
    policy: { baseDelayMs: 100, maxDelayMs: 1000, fastCrashMs: 5000, maxFastCrashes: 3 },
    now: () => clock,
    schedule(run, ms) {
      timers.push({ at: clock + ms, run });
      return {};
    },
  });
  const advance = (ms: number) => {
    clock += ms;
    for (const timer of timers.filter((t) => t.at <= clock)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.run();
    }
  };
  const latest = (name: string) => started[name]!.at(-1)!;
  return { supervisor, started, events, advance, latest };
}

describe('the launcher supervisor', () => {
  it('restarts a service that exits, even with code 0, and leaves the others alone', () => {
    const h = harness();
    h.advance(60_000);
    h.latest('image').exit(0);
    expect(h.started.image).toHaveLength(1);
    h.advance(100);
    expect(h.started.image).toHaveLength(2);
    expect(h.started.gateway).toHaveLength(1);
    expect(h.started.gateway![0]!.signals).toEqual([]);
    expect(h.events.map((e) => e.kind)).toEqual(['exited', 'restarted']);
  });

  it('backs off on fast crashes and gives up loudly after repeated ones, keeping the rest up', () => {
    const h = harness();
    h.latest('image').exit(1);
    h.advance(100);
    h.latest('image').exit(1);
    const delays = h.events.flatMap((e) => (e.kind === 'exited' ? [e.restartInMs] : []));
    expect(delays).toEqual([100, 200]);
    h.advance(200);
    h.latest('image').exit(1);
    h.advance(10_000);
    expect(h.started.image).toHaveLength(3);
    expect(h.events.at(-1)).toEqual({ kind: 'gave-up', name: 'image', crashes: 3 });
    expect(h.supervisor.gaveUp.has('image')).toBe(true);
    expect(h.latest('gateway').exitCode).toBeNull();
  });

  it('forgets fast crashes after a long run', () => {
    const h = harness();
    h.latest('image').exit(1);
    h.advance(100);
    h.advance(60_000);
    h.latest('image').exit(1);
    const delays = h.events.flatMap((e) => (e.kind === 'exited' ? [e.restartInMs] : []));
    expect(delays).toEqual([100, 100]);
  });

  it('stops everything on stop() and restarts nothing afterwards', async () => {
    const h = harness();
    const outcome = await h.supervisor.stop();
    expect(outcome).toEqual({ clean: true, gaveUp: [] });
    expect(h.latest('gateway').signals).toEqual(['SIGTERM']);
    h.advance(60_000);
    expect(h.started.gateway).toHaveLength(1);
    expect(h.started.image).toHaveLength(1);
  });

  it('reports an unclean stop when a service was given up on', async () => {
    const h = harness();
    for (let i = 0; i < 3; i++) {
      h.latest('image').exit(1);
      h.advance(1000);
    }
    expect(await h.supervisor.stop()).toEqual({ clean: false, gaveUp: ['image'] });
  });
});
