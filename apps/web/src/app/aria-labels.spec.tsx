import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { PendingTurnData } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderApp, storeLoggedInUser, testUser } from '../test/render-app';
import { ok, storyData, storyItem, storyList } from '../test/story-fixtures';

// Names a Chinese screen reader may read in Latin letters: the product's and the services' own names.
const PRODUCT_NAMES = ['TaleLoom', 'QQ', 'Discord', 'AI'];
const id = 'a'.repeat(24);
// Content in Chinese too: a user's name and a story's lines are read as they are written.
const user = { ...testUser, userName: '小明' };
const idle: PendingTurnData = { state: 'idle', role: '', input: '', userText: '', aiText: '', reasoning: '', model: '', errorCode: null, cost: 0, turnId: null, takes: [], retryAfterMs: 0 };

function serve() {
  mockFetch((url) => {
    if (url.startsWith('/api/user/story-list')) return jsonResponse(ok(storyList([storyItem({ id, name: '龙的故事', pinToTop: true, 'first-line': '很久以前。', 'last-line': '完。' })])));
    if (url.startsWith('/api/site-config')) return jsonResponse(ok({ qqGroup: { number: '123456', imageUrl: '', link: '' }, discordUrl: '', activity: null }));
    if (url === `/api/user/check-story/${id}`) return jsonResponse(ok({ userHasStory: true, isPublic: false, originUserID: 'u1' }));
    if (url === `/api/llm?id=${id}`) return jsonResponse(ok({ ...storyData({ id, name: '龙的故事', role: '玛拉', main_text: '很久以前。', prologue_and_characters: '很久以前。', author: '小明', writer: '小明' }), isOwner: true }));
    if (url === `/api/llm/${id}/pending`) return jsonResponse(ok(idle));
    if (url === `/api/llm/${id}/branches`) return jsonResponse(ok({ branches: [], current: id, max: 50 }));
    if (url === '/api/custom-models') return jsonResponse(ok([]));
    if (url === '/api/model_list') return jsonResponse(ok([{ label: '演示', value: 'demo', points: 10, status: 4, demo: true, contextWindow: 8192, maxOutput: 400 }]));
    if (url.includes('/country-codes')) return jsonResponse(ok({ '1': ['US'], '86': ['CN'] }));
    if (url.includes('/captcha')) return jsonResponse(ok({ provider: 'svg', id: 'b'.repeat(24), svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>', expiresInSeconds: 120 }));
    return jsonResponse(ok(user));
  });
}

/** aria-label values that assistive technology can reach (not inside an aria-hidden subtree) with a Latin word not a product name. */
function latinLabels(): string[] {
  const found: string[] = [];
  for (const el of Array.from(document.querySelectorAll('[aria-label]'))) {
    if (el.closest('[aria-hidden="true"]')) continue;
    const label = el.getAttribute('aria-label') ?? '';
    const words = (label.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !PRODUCT_NAMES.includes(w));
    if (words.length > 0) found.push(`${el.tagName.toLowerCase()}[aria-label="${label}"]`);
  }
  return [...new Set(found)];
}

async function inChinese() {
  const { i18n } = await import('../lib/i18n');
  await i18n.changeLanguage('zh-CN');
  window.localStorage.setItem('showGuide', 'false');
}

describe('aria-labels in the Chinese UI', () => {
  it('the sign-in page has no English aria-label', async () => {
    serve();
    await inChinese();
    renderApp('/login');
    await screen.findByTestId('phone-login-form', {}, { timeout: 5000 });
    await screen.findByAltText('图形验证码');
    expect(latinLabels()).toEqual([]);
  });

  it('the stories screen, its user menu and the create form have no English aria-label', async () => {
    storeLoggedInUser(user);
    serve();
    await inChinese();
    const { router } = renderApp('/stories');
    await screen.findAllByTestId('story-item', {}, { timeout: 5000 });
    expect(latinLabels()).toEqual([]);
    await act(async () => fireEvent.click(screen.getByTestId('user-menu-trigger')));
    expect(latinLabels()).toEqual([]);
    await act(async () => router.navigate('/create'));
    await screen.findByTestId('create-form', {}, { timeout: 5000 });
    expect(latinLabels()).toEqual([]);
  });

  it('the play screen, with its settings panel open, has no English aria-label', async () => {
    storeLoggedInUser(user);
    serve();
    await inChinese();
    renderApp(`/play?id=${id}`);
    await screen.findByTestId('play-textarea', {}, { timeout: 5000 });
    expect(latinLabels()).toEqual([]);
    // The screen may still settle (the story and the user arrive): click until the panel's button reads as pressed.
    await waitFor(() => {
      const button = screen.getByTestId('toolbar-settings');
      if (button.getAttribute('aria-pressed') !== 'true') fireEvent.click(button);
      expect(screen.getByTestId('settings-panel')).toBeInTheDocument();
    });
    expect(latinLabels()).toEqual([]);
  });
});
