// CPU time and peak memory of another process on this machine, from /proc (Linux).
import { readFileSync, writeFileSync } from 'node:fs';

// Clock ticks per second of utime/stime in /proc/<pid>/stat (getconf CLK_TCK; 100 on Linux).
const TICKS = 100;

/** CPU seconds (user + system) the process has used so far; NaN when it cannot be read. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), counted from field 3 (state).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return NaN;
  }
}

function statusField(pid: number, name: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;
  } catch {
    return NaN;
  }
}

export const rssBytes = (pid: number) => statusField(pid, 'VmRSS');

/** The process and its children (the workers of a multi-process API), from /proc (Linux). */
export function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    return [pid, ...children];
  } catch {
    return [pid];
  }
}

/**
 * Watches a process (with `tree`, it and its children: a multi-process API) over a window: CPU used
 * (as a share of one core, summed) and peak RSS (summed over the processes: each one's peak). The peak
 * is the kernel's high-water mark (VmHWM, reset at the start through /proc/<pid>/clear_refs), so no
 * sample can miss it; where the reset is refused, the highest of samples taken every 50 ms.
 */
export class ProcessWatch {
  private readonly pids: number[];
  private readonly cpu0: number;
  private readonly t0 = performance.now();
  private readonly hwmReset: boolean;
  private readonly sampled = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;
  readonly rssBefore: number;

  constructor(
    readonly pid: number,
    tree = false,
  ) {
    this.pids = tree ? processTree(pid) : [pid];
    this.rssBefore = this.sum(rssBytes);
    let reset = true;
    for (const p of this.pids) {
      try {
        writeFileSync(`/proc/${p}/clear_refs`, '5');
      } catch {
        // not ours, or not Linux
        reset = false;
      }
      this.sampled.set(p, rssBytes(p));
    }
    this.hwmReset = reset;
    this.cpu0 = this.sum(cpuSeconds);
    this.timer = setInterval(() => {
      for (const p of this.pids) {
        const now = rssBytes(p);
        if (now > (this.sampled.get(p) ?? 0)) this.sampled.set(p, now);
      }
    }, 50);
  }

  private sum(read: (pid: number) => number): number {
    return this.pids.reduce((total, p) => total + read(p), 0);
  }

  /** Ends the window: CPU % of one core and CPU seconds used, peak RSS and RSS now, in bytes. */
  stop(): { cpuPercent: number; cpuSeconds: number; peakRss: number; rssBefore: number; rssAfter: number } {
    clearInterval(this.timer);
    const seconds = (performance.now() - this.t0) / 1000;
    const used = this.sum(cpuSeconds) - this.cpu0;
    const cpuPercent = (used / seconds) * 100;
    const rssAfter = this.sum(rssBytes);
    const peakRss = this.sum((p) => {
      const hwm = this.hwmReset ? statusField(p, 'VmHWM') : NaN;
      return Math.max(this.sampled.get(p) ?? 0, rssBytes(p) || 0, Number.isFinite(hwm) ? hwm : 0);
    });
    return { cpuPercent, cpuSeconds: used, peakRss, rssBefore: this.rssBefore, rssAfter };
  }
}
