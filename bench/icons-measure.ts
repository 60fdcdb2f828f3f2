/** Latency of requests sent one at a time over a kept-alive connection, and a process's RSS. */
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';

export interface Latency {
  count: number;
  p50: number;
  p99: number;
}

function getOnce(agent: Agent, base: string, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `count` requests cycling through `paths`, after a short warm-up. */
export async function measureSequential(base: string, paths: readonly string[], count: number): Promise<Latency> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < 200; i++) await getOnce(agent, base, paths[i % paths.length]!);
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await getOnce(agent, base, paths[i % paths.length]!);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
    return { count, p50: at(0.5), p99: at(0.99) };
  } finally {
    agent.destroy();
  }
}

/** Resident set size of a process in bytes (Linux /proc). */
export async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}
