/** A process's resident memory, read from /proc (Linux), for the memory benchmarks. */
import { readFileSync } from 'node:fs';

export function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * Its proportional share (PSS): pages shared with other processes count divided among them. Every
 * process of the stack maps the same Node binary (about 40 MB of it resident), which RSS counts
 * once per process; PSS sums to what the stack takes from the machine.
 */
export function pssOf(pid: number): number {
  const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}
