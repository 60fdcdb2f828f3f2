/**
 * Ends the current task so the browser can paint and answer input before the next step: start-up
 * work run as one task counts whole against a phone's main thread (every part over 50 ms blocks).
 * `scheduler.yield()` where the browser has it (the continuation keeps its place in the queue),
 * else a zero-delay timer.
 */
interface Scheduler {
  yield(): Promise<void>;
}

export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<Scheduler> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
