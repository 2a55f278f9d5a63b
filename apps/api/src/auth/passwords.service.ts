import { Inject, Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/**
 * How many password hashes run at once (PASSWORD_HASH_CONCURRENCY; 0: this). A hash runs on a thread of
 * libuv's pool, which file reads (the web app's files, pictures), DNS lookups (providers' hosts) and
 * compression wait on too: with every thread hashing, a burst of sign-ins held them all up. Two threads
 * stay free for them, and no more hashes run than there are cores. On 2 cores, 200 registrations at once
 * (`bench:sign-in`): the sign-ins 2 to 11 % slower than with every thread hashing, the page and health
 * answers meanwhile 2 to 3 times sooner; one at a time made the sign-ins half as slow again.
 */
export function autoHashConcurrency(cores = availableParallelism(), poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4): number {
  return Math.max(1, Math.min(cores, poolSize - 2));
}

/**
 * Passwords: argon2id with the library's recommended defaults (19 MiB, 2 passes; about 25 ms of a core
 * each), hashed and checked a few at a time (see autoHashConcurrency).
 */
@Injectable()
export class PasswordsService {
  private readonly limit: pLimit.Limit;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limit = pLimit(config.env.PASSWORD_HASH_CONCURRENCY || autoHashConcurrency());
  }

  /** Hashes a new password. */
  hash(password: string): Promise<string> {
    return this.limit(() => hash(password));
  }

  /** Whether `password` is the one `passwordHash` was made from. */
  verify(passwordHash: string, password: string): Promise<boolean> {
    return this.limit(() => verify(passwordHash, password));
  }

  /** Hashes and checks running now. */
  get running(): number {
    return this.limit.activeCount;
  }

  /** Hashes and checks waiting for their turn. */
  get waiting(): number {
    return this.limit.pendingCount;
  }
}
