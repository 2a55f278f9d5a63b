import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * This process, as the owner of work it writes to the database (a running generation): host, pid and
 * a random id for this start. Written as one string `host|pid|boot`.
 */
export const INSTANCE = { host: hostname(), pid: process.pid, boot: randomUUID() };
export const INSTANCE_TAG = `${INSTANCE.host}|${INSTANCE.pid}|${INSTANCE.boot}`;

/**
 * True when the process that wrote `tag` is known to be gone: it ran on this host and either its pid
 * is this process's with another start id (a restart that got the same pid, as PID 1 in a container
 * does), or no process has its pid any more. Work of another host is never judged here (false):
 * it is taken over once its heartbeat is old.
 */
export function ownerIsGone(tag: string | null | undefined): boolean {
  if (!tag) return false;
  const [host, pidText, boot] = tag.split('|');
  const pid = Number(pidText);
  if (host !== INSTANCE.host || !Number.isSafeInteger(pid) || pid <= 0 || !boot) return false;
  if (pid === INSTANCE.pid) return boot !== INSTANCE.boot;
  try {
    process.kill(pid, 0);
    return false; // a process has that pid (possibly another one that reused it: then we wait for the heartbeat)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
