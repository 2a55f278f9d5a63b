import { Inject, Injectable, Logger } from '@nestjs/common';
import { ErrorCode } from '@taleloom/contracts';
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { stripBrackets } from '../config/network-list';
import { AddressPolicy } from './address-policy';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (replaceable in tests to play DNS tricks). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((done, fail) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? fail(error) : done(addresses)));
  });

/** A connection to a refused address was stopped before it was made. */
export class AddressBlockedError extends Error {
  readonly code = ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED;
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`${host} resolves to ${address} (${range}), which custom models may not reach`);
    this.name = 'AddressBlockedError';
  }
}

/**
 * The server-side request forgery guard for users' base URLs: checked when a model is saved, and
 * again for every connection, on the address actually connected to (`lookup` below), so a name that
 * resolves somewhere else later (DNS rebinding) is still refused.
 */
@Injectable()
export class AddressGuard {
  private readonly logger = new Logger('AddressGuard');
  private readonly policy: AddressPolicy;
  resolver: Resolver = systemResolver;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.policy = new AddressPolicy(config.env.CUSTOM_MODEL_ALLOWED_NETWORKS ?? '');
  }

  /** All addresses of a host, refused (AddressBlockedError) if any of them is not allowed. */
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const bare = stripBrackets(host);
    const family = isIP(bare);
    const addresses = family ? [{ address: bare, family }] : await this.resolver(bare);
    for (const a of addresses) {
      const range = this.policy.refusal(a.address);
      if (range) {
        this.logger.warn(`refused a custom model address: ${bare} -> ${a.address} (${range})`);
        throw new AddressBlockedError(bare, a.address, range);
      }
    }
    return addresses;
  }

  /**
   * The save-time check of a base URL: a refused address is CUSTOM_MODEL_ADDRESS_BLOCKED, a host that
   * does not exist is CUSTOM_MODEL_ADDRESS_UNREACHABLE. A temporary DNS failure lets the save through
   * (every connection is checked again anyway).
   */
  async checkUrl(baseUrl: string): Promise<void> {
    try {
      await this.resolve(new URL(baseUrl).hostname);
    } catch (error) {
      if (error instanceof AddressBlockedError) throw new AppException(ErrorCode.CUSTOM_MODEL_ADDRESS_BLOCKED);
      if ((error as NodeJS.ErrnoException).code === 'ENOTFOUND') throw new AppException(ErrorCode.CUSTOM_MODEL_ADDRESS_UNREACHABLE);
    }
  }

  /** A `lookup` for sockets: resolves through the guard, so only allowed addresses are connected to. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const list = wanted ? all.filter((a) => a.family === wanted) : all;
        if (list.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`no address of family ${wanted} for ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
        } else if (options.all) {
          (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, list);
        } else {
          callback(null, list[0].address, list[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
