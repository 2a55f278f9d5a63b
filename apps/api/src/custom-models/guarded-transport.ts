import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import type { ProviderTransport } from '../models/chat-provider';
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
  private readonly agent: Agent;

  constructor(guard: AddressGuard) {
    const connect = buildConnector({ lookup: guard.lookup, timeout: CONNECT_TIMEOUT_MS });
    this.agent = new Agent({
      connect: (options, callback) => {
        const host = stripBrackets(options.hostname);
        if (!isIP(host)) return connect(options, callback);
        // Node's net skips `lookup` for literal addresses: check them here.
        guard.resolve(host).then(
          () => connect(options, callback),
          (error: Error) => callback(error, null),
        );
      },
    });
  }

  get fetchOptions(): Record<string, unknown> {
    return { dispatcher: this.agent };
  }

  readonly fetch = undiciFetch as unknown as typeof globalThis.fetch;

  // After the runners drained (beforeApplicationShutdown), which may still be reading a custom model.
  async onApplicationShutdown(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}
