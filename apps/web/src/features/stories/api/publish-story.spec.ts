import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../app/providers';
import { storyData, storyItem } from '../../../test/story-fixtures';
import { visibilityChanged } from './publish-story';
import { storyKeys } from './story-keys';

describe('publishing or making private', () => {
  it('gives the open story its new visibility without reading its text again; lists and the check are read again', async () => {
    const client = createQueryClient();
    const id = 'a'.repeat(24);
    const text = 'A long story. '.repeat(10_000);
    client.setQueryData(storyKeys.detail(id), storyData({ id, main_text: text, permission: '0' }));
    client.setQueryData(storyKeys.lists(), { pages: [] });
    client.setQueryData(storyKeys.check(id), { userHasStory: true, isPublic: false, originUserID: 'u1' });
    await visibilityChanged(client, id, storyItem({ id, permission: '1' }));
    expect(client.getQueryData(storyKeys.detail(id))).toMatchObject({ permission: '1', main_text: text });
    expect(client.getQueryState(storyKeys.detail(id))?.isInvalidated).toBe(false);
    expect(client.getQueryState(storyKeys.lists())?.isInvalidated).toBe(true);
    expect(client.getQueryState(storyKeys.check(id))?.isInvalidated).toBe(true);
  });
});
