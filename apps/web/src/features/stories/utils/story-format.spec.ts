import { describe, expect, it } from 'vitest';
import { storyItem } from '../../../test/story-fixtures';
import { decideOpen, formatSnippet, formatStoryTitle, needsCloneBeforePlay, shareLink, storyBadges } from './story-format';

const item = storyItem;

describe('formatStoryTitle', () => {
  it('shows the name of an original story', () => {
    expect(formatStoryTitle(item(), 'Untitled')).toBe('The Dragon');
  });
  it('shows S{clonedFrom} name V{level} for a clone', () => {
    expect(formatStoryTitle(item({ level: 1, clonedFrom: 12 }), 'Untitled')).toBe('S12 The Dragon V1');
    expect(formatStoryTitle(item({ level: 2, clonedFrom: 345 }), 'Untitled')).toBe('S345 The Dragon V2');
  });
  it('shows the translated untitled for an empty name', () => {
    expect(formatStoryTitle(item({ name: '' }), '未命名')).toBe('未命名');
    expect(formatStoryTitle(item({ name: ' ', level: 1, clonedFrom: 3 }), 'Untitled')).toBe('S3 Untitled V1');
  });
});

describe('formatSnippet', () => {
  it('joins the first and last line with an ellipsis', () => {
    expect(formatSnippet(item())).toBe('Once upon a time. ... The end.');
  });
  it('shows one line alone, and nothing for no text', () => {
    expect(formatSnippet(item({ 'last-line': '' }))).toBe('Once upon a time.');
    expect(formatSnippet(item({ 'first-line': '', 'last-line': '' }))).toBe('');
  });
});

describe('storyBadges', () => {
  const ctx = { tab: 'mine' as const, index: 1, myUserID: 'u1' };
  it('has no badges for a plain private story that is not first', () => {
    expect(storyBadges(item(), ctx)).toEqual([]);
  });
  it('marks pinned, restore point, latest (first item only) and public', () => {
    expect(storyBadges(item({ pinToTop: true, recovery_point: true, permission: '1' }), { ...ctx, index: 0 })).toEqual([
      'pinned',
      'restorePoint',
      'latest',
      'public',
    ]);
  });
  it("never marks someone else's story as a restore point", () => {
    expect(storyBadges(item({ recovery_point: true, permission: '1', userID: 'u2' }), { ...ctx, tab: 'public' })).toEqual(['public']);
  });
  it('marks my own stories in the public tab only', () => {
    expect(storyBadges(item({ permission: '1' }), { ...ctx, tab: 'public' })).toEqual(['myStory', 'public']);
    expect(storyBadges(item({ permission: '1', userID: 'u2' }), { ...ctx, tab: 'public' })).toEqual(['public']);
    expect(storyBadges(item({ permission: '1' }), ctx)).toEqual(['public']);
  });
});

describe('decideOpen', () => {
  const id = 'b'.repeat(24);
  it('loads my own story', () => {
    expect(decideOpen(id, { userHasStory: true, isPublic: false, originUserID: 'me' })).toEqual({ kind: 'load' });
    expect(decideOpen(id, { userHasStory: true, isPublic: true, originUserID: 'me' })).toEqual({ kind: 'load' });
  });
  it("clones someone else's public story from its owner", () => {
    expect(decideOpen(id, { userHasStory: false, isPublic: true, originUserID: 'them' })).toEqual({
      kind: 'clone',
      userID: 'them',
      storyID: id,
    });
  });
  it('refuses anything else (not found, or private)', () => {
    expect(decideOpen(id, null)).toEqual({ kind: 'refuse' });
    expect(decideOpen(id, { userHasStory: false, isPublic: false, originUserID: 'them' })).toEqual({ kind: 'refuse' });
  });
  it('clones a story with a restore point before playing it from my list', () => {
    expect(needsCloneBeforePlay(item({ recovery_point: true }))).toBe(true);
    expect(needsCloneBeforePlay(item())).toBe(false);
  });
});

describe('shareLink', () => {
  it('points at the play screen with the id', () => {
    expect(shareLink('https://taleloom.example', 'abc')).toBe('https://taleloom.example/play?id=abc');
  });
});
