import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { isIP } from 'node:net';
import type { Agent, fetch as undiciFetch } from 'undici';
import type { ProviderTransport } from '../models/chat-provider';
import { loadUndici } from '../models/platform-fetch';
import { AddressGuard } from './address-guard';
import { stripBrackets } from '../config/network-list';

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The HTTP transport for users' custom models: undici's fetch with an agent whose every connection
 * goes through the address guard — host names are resolved by the guard's `lookup` (the address
 * checked is the address connected to), IP literals are checked directly. Redirects open new
 * connections through the same agent, so they are checked too.
 */
@Injectable()
export class GuardedTransport implements ProviderTransport, OnApplicationShutdown {
  readonly key = 'guarded';
  private agent?: Agent;

  constructor(private readonly guard: AddressGuard) {}

  // Made on first use: undici is loaded then (platform-fetch.ts).
  private dispatcher(): Agent {
    if (this.agent) return this.agent;
    const { Agent: UndiciAgent, buildConnector } = loadUndici();
    const guard = this.guard;
    const connect = buildConnector({ lookup: guard.lookup, timeout: CONNECT_TIMEOUT_MS });
    return (this.agent = new UndiciAgent({
      connect: (options, callback) => {
        const host = stripBrackets(options.hostname);
        if (!isIP(host)) return connect(options, callback);
        // Node's net skips `lookup` for literal addresses: check them here.
        guard.resolve(host).then(
          () => connect(options, callback),
          (error: Error) => callback(error, null),
        );
      },
    }));
  }

  get fetchOptions(): Record<string, unknown> {
    return { dispatcher: this.dispatcher() };
  }

  readonly fetch = ((...args: Parameters<typeof undiciFetch>) => loadUndici().fetch(...args)) as unknown as typeof globalThis.fetch;

  // After the runners drained (beforeApplicationShutdown), which may still be reading a custom model.
  async onApplicationShutdown(): Promise<void> {
    await this.agent?.close().catch(() => undefined);
  }
}
