import { PIN_USAGE, parsePinArgs, pinStory } from '../src/stories/pin-story';
import { as, publishedStory, signUp } from './story-factories';
import { createTestApp, type TestApp } from './test-app';

describe('pinning stories (operator command story:pin)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.clean());
  afterAll(() => t.close());

  it('parses `<storyNo> [--unpin]`, with or without the `--` pnpm passes', () => {
    expect(parsePinArgs(['12'])).toEqual({ storyNo: 12, pinned: true });
    expect(parsePinArgs(['--', '12', '--unpin'])).toEqual({ storyNo: 12, pinned: false });
    expect(parsePinArgs([])).toEqual({ error: PIN_USAGE });
    expect(parsePinArgs(['abc'])).toEqual({ error: PIN_USAGE });
    expect(parsePinArgs(['1', '2'])).toEqual({ error: PIN_USAGE });
  });

  it('pins a story to the top of the square and unpins it', async () => {
    const alice = await signUp(t, 'alice');
    const bob = await signUp(t, 'bob');
    const older = await publishedStory(t, alice, { name: 'Older' });
    await new Promise((r) => setTimeout(r, 5));
    await publishedStory(t, alice, { name: 'Newer' });
    const storyNo = (await as(t, alice).get(`/api/user/story?id=${older}`)).body.data.storyNo;
    const names = async () =>
      (await as(t, bob).get('/api/user/story-list?public=true')).body.data.list.map(
        (s: { name: string; pinToTop: boolean }) => `${s.name}${s.pinToTop ? '*' : ''}`,
      );
    expect(await names()).toEqual(['Newer', 'Older']);
    expect(await pinStory(t.connection, { storyNo, pinned: true })).toEqual({
      storyNo,
      name: 'Older',
      pinToTop: true,
      permission: '1',
    });
    expect(await names()).toEqual(['Older*', 'Newer']);
    await pinStory(t.connection, { storyNo, pinned: false });
    expect(await names()).toEqual(['Newer', 'Older']);
    expect(await pinStory(t.connection, { storyNo: 999, pinned: true })).toBeNull();
  });
});
