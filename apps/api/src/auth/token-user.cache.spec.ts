import type { UserRepository } from '../users/user.repository';
import { TOKEN_USER_TTL_MS, TokenUsers } from './token-user.cache';

// A user repository whose reads the test answers by hand.
function fakeUsers() {
  const reads: { userID: string; answer: (validAfter: number) => void; gone: () => void }[] = [];
  const repo = {
    tokenFields: (userID: string) =>
      new Promise((done) =>
        reads.push({ userID, answer: (validAfter) => done({ userName: 'mara', tokensValidAfter: validAfter ? new Date(validAfter) : null }), gone: () => done(null) }),
      ),
  } as unknown as UserRepository;
  return { repo, reads };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('TokenUsers', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('serves a fresh entry without a read, reads again in the background after half the TTL, and never serves an entry older than the TTL', async () => {
    const { repo, reads } = fakeUsers();
    const users = new TokenUsers(repo);
    const first = users.get('u1');
    expect(reads).toHaveLength(1);
    reads[0].answer(0);
    expect(await first).toEqual({ userName: 'mara', validAfter: 0 });

    vi.advanceTimersByTime(1000);
    expect(await users.get('u1')).toEqual({ userName: 'mara', validAfter: 0 });
    expect(reads).toHaveLength(1);

    // Past half the TTL: served at once, and read again meanwhile (one read for many requests), once the
    // request that found it old has done its own I/O (a timer later).
    vi.advanceTimersByTime(TOKEN_USER_TTL_MS / 2);
    expect(await users.get('u1')).toEqual({ userName: 'mara', validAfter: 0 });
    expect(reads).toHaveLength(1);
    vi.advanceTimersByTime(0);
    expect(await users.get('u1')).toEqual({ userName: 'mara', validAfter: 0 });
    expect(reads).toHaveLength(2);
    // The password changed on another instance: the background read finds it.
    reads[1].answer(12345);
    await tick();
    expect(await users.get('u1')).toEqual({ userName: 'mara', validAfter: 12345 });

    // Nobody asks for a whole TTL: the next request waits for a read, the old entry is not served.
    vi.advanceTimersByTime(TOKEN_USER_TTL_MS + 1);
    let answered = false;
    const late = users.get('u1').then((u) => ((answered = true), u));
    await tick();
    expect(answered).toBe(false);
    expect(reads).toHaveLength(3);
    reads[2].answer(99999);
    expect(await late).toEqual({ userName: 'mara', validAfter: 99999 });
  });

  it('does not keep a read that a forget (a password reset on this instance) overtook', async () => {
    const { repo, reads } = fakeUsers();
    const users = new TokenUsers(repo);
    const before = users.get('u1');
    users.forget('u1');
    const after = users.get('u1');
    expect(reads).toHaveLength(2);
    // The read from before the reset answers last: it is given to its caller, but not cached.
    reads[1].answer(500);
    reads[0].answer(0);
    expect(await before).toEqual({ userName: 'mara', validAfter: 0 });
    expect(await after).toEqual({ userName: 'mara', validAfter: 500 });
    expect(await users.get('u1')).toEqual({ userName: 'mara', validAfter: 500 });
    expect(reads).toHaveLength(2);
  });

  it('answers null for a user a read no longer finds, and keeps nothing of them', async () => {
    const { repo, reads } = fakeUsers();
    const users = new TokenUsers(repo);
    const first = users.get('u1');
    reads[0].answer(0);
    await first;
    vi.advanceTimersByTime(TOKEN_USER_TTL_MS + 1);
    const gone = users.get('u1');
    reads[1].gone();
    expect(await gone).toBeNull();
    const again = users.get('u1');
    expect(reads).toHaveLength(3);
    reads[2].gone();
    expect(await again).toBeNull();
  });
});
