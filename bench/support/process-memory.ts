/** A process's resident memory, read from /proc (Linux), for the memory benchmarks. */
import { readFileSync } from 'node:fs';

export function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}
