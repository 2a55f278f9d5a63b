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

/**
 * Watches one process over a window: CPU used (as a share of one core) and peak RSS. The peak is the
 * kernel's high-water mark (VmHWM, reset at the start through /proc/<pid>/clear_refs), so no sample
 * can miss it; where the reset is refused, the highest of samples taken every 50 ms.
 */
export class ProcessWatch {
  private readonly cpu0: number;
  private readonly t0 = performance.now();
  private readonly hwmReset: boolean;
  private sampled: number;
  private readonly timer: NodeJS.Timeout;
  readonly rssBefore: number;

  constructor(readonly pid: number) {
    this.rssBefore = rssBytes(pid);
    let reset = false;
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      reset = true;
    } catch {
      // not ours, or not Linux
    }
    this.hwmReset = reset;
    this.sampled = this.rssBefore;
    this.cpu0 = cpuSeconds(pid);
    this.timer = setInterval(() => {
      const now = rssBytes(this.pid);
      if (now > this.sampled) this.sampled = now;
    }, 50);
  }

  /** Ends the window: CPU % of one core and CPU seconds used, peak RSS and RSS now, in bytes. */
  stop(): { cpuPercent: number; cpuSeconds: number; peakRss: number; rssBefore: number; rssAfter: number } {
    clearInterval(this.timer);
    const seconds = (performance.now() - this.t0) / 1000;
    const used = cpuSeconds(this.pid) - this.cpu0;
    const cpuPercent = (used / seconds) * 100;
    const rssAfter = rssBytes(this.pid);
    const hwm = this.hwmReset ? statusField(this.pid, 'VmHWM') : NaN;
    return { cpuPercent, cpuSeconds: used, peakRss: Math.max(this.sampled, rssAfter, Number.isFinite(hwm) ? hwm : 0), rssBefore: this.rssBefore, rssAfter };
  }
}
