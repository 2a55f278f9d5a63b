import { describe, expect, it } from 'vitest';
import { buildLoginPath, resolvePostLoginPath } from './login-path';

describe('login paths', () => {
  it('sends a visitor to login with the redirect and the story id', () => {
    expect(buildLoginPath('/play', '?id=42')).toBe('/login?redirect=/play&id=42');
    expect(buildLoginPath('/stories', '')).toBe('/login?redirect=/stories');
  });

  it('returns to the redirect with the id after login, else to /stories', () => {
    expect(resolvePostLoginPath('redirect=/play&id=42')).toBe('/play?id=42');
    expect(resolvePostLoginPath('redirect=%2Fcreate')).toBe('/create');
    expect(resolvePostLoginPath('')).toBe('/stories');
  });

  it('ignores redirects that leave the app', () => {
    expect(resolvePostLoginPath('redirect=https://evil.example')).toBe('/stories');
    expect(resolvePostLoginPath('redirect=//evil.example')).toBe('/stories');
    expect(resolvePostLoginPath('redirect=/login')).toBe('/stories');
  });
});
