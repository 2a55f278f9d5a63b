import type { Connection } from 'mongoose';

/** How long before a request an outage may have ended and still explain its 503 (a pool cleared just before). */
const MARGIN_MS = 1000;

/**
 * What the app's database driver saw of the database going away: mongoose disconnects, servers turning
 * Unknown, failed heartbeats, cleared connection pools. A 503 DATABASE_UNAVAILABLE is a database blink
 * only if one of these happened while the request ran; otherwise something answered that code while the
 * database was up (a retry loop that gave up, an input that made a query fail), which is a bug the
 * fuzz suite must report.
 */
export class DatabaseOutages {
  private downSince: number | null = null;
  private readonly ended: number[] = [];
  private readonly events: string[] = [];
  private readonly detachers: (() => void)[] = [];

  constructor(private readonly connection: Connection) {
    const client = connection.getClient();
    const on = (emitter: NodeJS.EventEmitter, event: string, handler: (...args: unknown[]) => void) => {
      emitter.on(event, handler);
      this.detachers.push(() => emitter.off(event, handler));
    };
    on(connection, 'disconnected', () => this.down('mongoose disconnected'));
    on(connection, 'connected', () => this.up());
    on(connection, 'reconnected', () => this.up());
    on(client, 'serverHeartbeatFailed', () => this.blip('heartbeat failed'));
    on(client, 'connectionPoolCleared', () => this.blip('connection pool cleared'));
    on(client, 'serverDescriptionChanged', (event) => {
      const e = event as { previousDescription: { type: string }; newDescription: { type: string } };
      if (e.newDescription.type === 'Unknown') this.down('server Unknown');
      else if (e.previousDescription.type === 'Unknown') this.up();
    });
  }

  /** True when the database was seen unavailable at some moment since `since` (ms), or is now. */
  seenSince(since: number): boolean {
    return this.downNow() || this.ended.some((at) => at >= since - MARGIN_MS);
  }

  /** True while the database is seen away. */
  downNow(): boolean {
    return this.connection.readyState !== 1 || this.downSince !== null;
  }

  /** What was seen, for a failure message. */
  describe(): string {
    return this.events.length ? this.events.slice(-5).join('; ') : 'no sign of an outage';
  }

  detach(): void {
    for (const detach of this.detachers.splice(0)) detach();
  }

  private down(what: string): void {
    this.note(what);
    this.downSince ??= Date.now();
  }

  private up(): void {
    if (this.downSince === null) return;
    this.downSince = null;
    this.ended.push(Date.now());
  }

  // A sign of an outage that has no end of its own: it counts as a moment of outage.
  private blip(what: string): void {
    this.note(what);
    this.ended.push(Date.now());
  }

  private note(what: string): void {
    this.events.push(`${new Date().toISOString()} ${what}`);
    if (this.events.length > 50) this.events.shift();
  }
}
