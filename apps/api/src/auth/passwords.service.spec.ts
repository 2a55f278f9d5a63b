import type { AppConfig } from '../config/app-config';
import { autoHashConcurrency, PasswordsService } from './passwords.service';

const withConcurrency = (n: number) => new PasswordsService({ env: { PASSWORD_HASH_CONCURRENCY: n } } as AppConfig);

describe('PasswordsService', () => {
  it('hashes with argon2id and checks a password against its hash', async () => {
    const passwords = withConcurrency(0);
    const stored = await passwords.hash('secret1');
    expect(stored).toMatch(/^\$argon2id\$/);
    await expect(passwords.verify(stored, 'secret1')).resolves.toBe(true);
    await expect(passwords.verify(stored, 'secret2')).resolves.toBe(false);
  });

  it('runs at most PASSWORD_HASH_CONCURRENCY hashes at once; the others wait their turn', async () => {
    const passwords = withConcurrency(2);
    const done: number[] = [];
    const running: number[] = [];
    const all = Array.from({ length: 5 }, (_, i) =>
      passwords.hash(`secret${i}`).then(() => {
        running.push(passwords.running);
        done.push(i);
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect([passwords.running, passwords.waiting]).toEqual([2, 3]);
    await Promise.all(all);
    expect([passwords.running, passwords.waiting]).toEqual([0, 0]);
    expect(Math.max(...running)).toBeLessThanOrEqual(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('by default leaves two threads of the pool to the rest of the app, and runs no more than the cores', () => {
    expect(autoHashConcurrency(2, 4)).toBe(2);
    expect(autoHashConcurrency(1, 4)).toBe(1);
    expect(autoHashConcurrency(8, 4)).toBe(2);
    expect(autoHashConcurrency(4, 16)).toBe(4);
    expect(autoHashConcurrency(64, 8)).toBe(6);
    expect(autoHashConcurrency(8, 2)).toBe(1);
  });
});
