/**
 * Single flight for transforms, with askers who may leave: identical work runs once and every
 * asker of it waits for the same result, but each asker brings its own signal. An asker whose
 * signal aborts is let go at once; the work's own signal aborts only when the last asker has left,
 * so a shared job stops only when nobody at all waits for it. A flight that was given up is never
 * joined: the next asker starts the work afresh.
 */
import { abandoned } from './abandoned.js';

interface Flight<T> {
  result: Promise<T>;
  controller: AbortController;
  askers: number;
}

export class SharedFlights<T> {
  private readonly flights = new Map<string, Flight<T>>();

  /** Whether work for `key` is in flight and still wanted: a new asker would join it. */
  has(key: string): boolean {
    return this.live(key) !== undefined;
  }

  get size(): number {
    return this.flights.size;
  }

  run(key: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(abandoned());
    const flight = this.live(key) ?? this.start(key, work);
    flight.askers++;
    return this.await(flight, signal);
  }

  private live(key: string): Flight<T> | undefined {
    const flight = this.flights.get(key);
    return flight && !flight.controller.signal.aborted ? flight : undefined;
  }

  private start(key: string, work: (signal: AbortSignal) => Promise<T>): Flight<T> {
    const controller = new AbortController();
    const flight: Flight<T> = { controller, askers: 0, result: Promise.resolve(undefined as T) };
    flight.result = Promise.resolve()
      .then(() => work(controller.signal))
      .finally(() => {
        // A given-up flight may have been replaced by a fresh one under the same key.
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
    // Every asker may have left: the outcome is then nobody's, and must not surface as unhandled.
    flight.result.catch(() => undefined);
    this.flights.set(key, flight);
    return flight;
  }

  /** The flight's outcome for one asker, or its own abandonment as soon as its signal aborts. */
  private await(flight: Flight<T>, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        flight.askers--;
        if (flight.askers === 0) flight.controller.abort();
        reject(abandoned());
      };
      signal.addEventListener('abort', leave, { once: true });
      flight.result.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
    });
  }
}
