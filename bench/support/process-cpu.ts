/** CPU time and family of processes, read from /proc (Linux), for CPU-per-request figures. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of a process in seconds: the on-CPU time of all its threads from the scheduler
 * (/proc/{pid}/task/{tid}/schedstat, nanoseconds), finer than the 10 ms ticks of /proc/{pid}/stat.
 */
export function cpuSecondsOf(pid: number): number {
  let ns = 0;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e9;
}

export const cpuSecondsOfAll = (pids: number[]): number => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);

/** The children of `parent` with their command lines. */
export function childrenOf(parent: number): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent)
        found.push({ pid: Number(entry), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // the process left meanwhile
    }
  }
  return found;
}

/** CPU seconds used by the whole machine (all cores, busy time), from /proc/stat: the noise others made. */
export function machineBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  const busy = fields[0]! + fields[1]! + fields[2]! + fields[5]! + fields[6]! + fields[7]!;
  return busy / 100;
}

/** USER_HZ: 100 on every Linux the project runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

/**
 * CPU time of a process in seconds from /proc/{pid}/stat (user + system, 10 ms ticks), which keeps
 * the time of threads that have ended: libvips' workers come and go, and `cpuSecondsOf` loses theirs.
 */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name: state is the 3rd field, utime the 14th and stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
