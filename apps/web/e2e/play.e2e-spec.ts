import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, launchBrowser, newPage, PHONE, pressWhenStill, screenshot, settled, signUpInBrowser, createStoryInBrowser } from './browser';

const baseURL = inject('baseURL');

// The stub answers in the story's language; a stream that breaks off stops after four chunks.
const TEXT = {
  en: {
    failed: 'The model failed while writing',
    prologue: 'Mara waits at the pier. The ferry is late.',
    line: 'I wave at the ferry.',
    user: 'Mara: I wave at the ferry.',
    failLine: '[[fail]] The ferry horn sounds.',
    reply: /The lamp flickered and the story went on\.$/,
    partial: /The lamp flickered$/,
  },
  'zh-CN': {
    failed: '模型在生成时出错',
    prologue: '玛拉在码头等船，渡轮晚点了。',
    line: '我朝渡轮挥手。',
    user: 'Mara：我朝渡轮挥手。',
    failLine: '[[fail]] 渡轮的汽笛响了。',
    reply: /故事继续向前。$/,
    partial: /闪了一下，$/,
  },
} as const;
type Lang = keyof typeof TEXT;

/** A signed-in page for a new user with one story of theirs; answers the page and the story id. */
async function withStory(
  browser: Browser,
  lang: Lang,
  opts: { viewport?: { width: number; height: number }; showGuide?: boolean; role?: string } = {},
): Promise<{ context: BrowserContext; page: Page; storyId: string; token: string }> {
  const { context, page } = await newPage(browser, baseURL, {
    locale: lang === 'en' ? 'en-US' : 'zh-CN',
    viewport: opts.viewport,
    showGuide: opts.showGuide,
  });
  const { token } = await signUpInBrowser(context, page, lang, 'player');
  const storyId = await createStoryInBrowser(page, token, { name: lang === 'en' ? 'The late ferry' : '晚点的渡轮', prologue_and_characters: TEXT[lang].prologue, role: opts.role ?? 'Mara' });
  return { context, page, storyId, token };
}

const aiText = (page: Page) => page.getByTestId('turn-ai').innerText();
// Done streaming: the turn's actions are enabled (and their colour transition has finished).
async function waitIdle(page: Page) {
  await expect.poll(() => page.getByTestId('turn-continue').isEnabled()).toBe(true);
  await settled(page);
}

async function sendLine(page: Page, line: string) {
  await page.getByTestId('play-textarea').fill(line);
  await page.getByTestId('play-textarea').press('Shift+Enter');
}

describe('play in real Chromium: the whole turn loop', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`writes, streams, undoes, regenerates, saves, edits prior text and survives a failed stream (${lang})`, async () => {
      const { context, page, storyId } = await withStory(browser, lang, { showGuide: true });
      try {
        await page.goto(`/play?id=${storyId}`);
        // The tutorial shows once: three steps.
        await page.getByTestId('play-tutorial').waitFor();
        // The dialog zooms in (English, desktop: with motion): a press during the zoom can miss the moving button.
        for (let i = 0; i < 3; i++) await pressWhenStill(page, 'tutorial-next');
        await page.getByTestId('play-tutorial').waitFor({ state: 'hidden' });
        await expect.poll(() => page.evaluate(() => localStorage.getItem('showGuide'))).toBe('false');
        await expect.poll(() => page.getByTestId('play-text').innerText()).toBe(TEXT[lang].prologue);

        // Send as the story's role with Shift+Enter: the user part and the streamed AI part appear.
        await sendLine(page, TEXT[lang].line);
        await page.getByTestId('turn-card').waitFor();
        await expect.poll(() => page.getByTestId('turn-user').innerText()).toBe(TEXT[lang].user);
        await expect.poll(() => aiText(page)).toMatch(TEXT[lang].reply);
        await waitIdle(page);
        const first = await aiText(page);
        await screenshot(page, `play-turn-${lang}-desktop`);

        // Undo puts the line and the role back.
        await page.getByTestId('turn-undo').click();
        await page.getByTestId('turn-card').waitFor({ state: 'detached' });
        await expect.poll(() => page.getByTestId('play-textarea').inputValue()).toBe(TEXT[lang].line);
        expect(await page.getByTestId('play-text').innerText()).toBe(TEXT[lang].prologue);

        // Send again (Enter alone is a new line), then regenerate: a different reply. Each is pressed at
        // once: the page waits for the one-send-per-second rule itself (lived-in.e2e-spec.ts proves it).
        await page.getByTestId('play-textarea').press('Enter');
        expect(await page.getByTestId('play-textarea').inputValue()).toBe(`${TEXT[lang].line}\n`);
        await page.getByTestId('send-button').click();
        await waitIdle(page);
        const second = await aiText(page);
        expect(second).not.toBe(first);
        await page.getByTestId('turn-regenerate').click();
        await expect.poll(() => aiText(page)).not.toBe(second);
        await waitIdle(page);
        const third = await aiText(page);

        // Save appends it to the text and updates the count.
        await page.getByTestId('turn-save').click();
        await page.getByTestId('turn-card').waitFor({ state: 'detached' });
        await expect.poll(() => page.getByTestId('play-text').innerText()).toContain(third);
        const count = await page.getByTestId('char-count').innerText();
        expect(count).toMatch(/\d+/);

        // Edit prior text: confirm saves; other buttons are disabled meanwhile.
        await page.getByTestId('toolbar-edit').click();
        expect(await page.getByTestId('send-button').isDisabled()).toBe(true);
        const edited = (await page.getByTestId('edit-textarea').inputValue()).replace(TEXT[lang].prologue, `${TEXT[lang].prologue} EDITED.`);
        await page.getByTestId('edit-textarea').fill(edited);
        const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes('/api/llm?'));
        await page.getByTestId('edit-confirm').click();
        await expect.poll(() => page.getByTestId('play-text').innerText()).toContain('EDITED.');
        // Only the change went up, not the whole text; and the whole text did not come back down.
        const sent = (await patch).postDataJSON() as { main_text?: string; main_text_edit?: { removed: string; inserted: string } };
        expect(sent.main_text).toBeUndefined();
        expect(sent.main_text_edit).toMatchObject({ removed: '' });
        expect(sent.main_text_edit?.inserted).toHaveLength(' EDITED.'.length);
        const answer = (await (await patch).response())!;
        expect((await answer.json()).data).not.toHaveProperty('main_text');

        // A stream that breaks off half-way keeps its text and says why.
        await sendLine(page, TEXT[lang].failLine);
        await page.getByTestId('turn-error').waitFor();
        expect(await page.getByTestId('turn-error').innerText()).toContain(TEXT[lang].failed);
        expect(await aiText(page)).toMatch(TEXT[lang].partial);
        await waitIdle(page);
        await screenshot(page, `play-failed-${lang}-desktop`);
        await page.getByTestId('turn-undo').click();
        await page.getByTestId('turn-card').waitFor({ state: 'detached' });

        // Everything saved survives a reload.
        await page.reload();
        await expect.poll(() => page.getByTestId('play-text').innerText()).toContain('EDITED.');
        expect(await page.getByTestId('play-text').innerText()).toContain(third);
        expect(await page.getByTestId('play-tutorial').count()).toBe(0);
      } finally {
        await context.close();
      }
    });
  }

  it('shows a generation that finished while the page was away, and the settings panel', async () => {
    const { context, page, storyId, token } = await withStory(browser, 'en');
    try {
      // Start a turn over the API and drop the connection at once.
      const controller = new AbortController();
      const res = await fetch(`${baseURL}/api/llm/${storyId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ role: 'Mara', content: 'Where is everyone?' }),
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      controller.abort();
      await page.goto(`/play?id=${storyId}`);
      await expect.poll(() => page.getByTestId('turn-user').innerText()).toBe('Mara: Where is everyone?');
      await expect.poll(() => aiText(page)).toMatch(/story went on\.$/);
      await waitIdle(page);

      await page.getByTestId('toolbar-settings').click();
      await page.getByTestId('settings-panel').waitFor();
      expect(await page.getByTestId('creation-guide').getAttribute('target')).toBe('_blank');
      await page.getByTestId('setting-system-switch').getByText('Custom').click();
      await page.getByTestId('setting-system-text').fill('Write like a sea shanty.');
      await page.getByTestId('setting-system-text').blur();
      await expect
        .poll(async () => (await (await page.request.get(`/api/llm?id=${storyId}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data.settings_system_prompt_text)
        .toBe('Write like a sea shanty.');
      await screenshot(page, 'play-settings-en-desktop');
    } finally {
      await context.close();
    }
  });

  // English at desktop width, Chinese on a phone.
  for (const [lang, viewport, changed, passage] of [
    ['en', DESKTOP, 'changed while you were editing', 'The bell echoes over the water.'],
    ['zh-CN', PHONE, '编辑期间故事正文已有改动', '钟声在水面上回荡。'],
  ] as const) {
    it(`keeps an edit and a passage accepted elsewhere meanwhile: the save is refused once, the edit carried onto the new text (${lang}, ${viewport.width} px)`, async () => {
      const { context, page, storyId, token } = await withStory(browser, lang, { viewport });
      try {
        await page.goto(`/play?id=${storyId}`);
        await page.getByTestId('play-toolbar').waitFor();
        await page.getByTestId('toolbar-edit').click();
        const draft = (await page.getByTestId('edit-textarea').inputValue()).replace(TEXT[lang].prologue, `${TEXT[lang].prologue} EDITED.`);
        await page.getByTestId('edit-textarea').fill(draft);
        // Another device accepts a turn while the editor is open.
        const accepted = await fetch(`${baseURL}/api/llm/${storyId}/accept`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ userContent: lang === 'en' ? 'Mara: I ring the bell.' : 'Mara：我敲响了钟。', newContent: passage }),
        });
        expect(accepted.status).toBe(200);
        await page.getByTestId('edit-confirm').click();
        await page.getByText(changed).waitFor();
        // The story was read again; the editor keeps the user's change and now holds the new passage too.
        await expect.poll(() => page.getByTestId('edit-textarea').inputValue()).toContain(passage);
        expect(await page.getByTestId('edit-textarea').inputValue()).toContain(`${TEXT[lang].prologue} EDITED.`);
        await screenshot(page, `play-edit-changed-${lang}-${viewport === PHONE ? 'phone' : 'desktop'}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(viewport.width);
        await page.getByTestId('edit-confirm').click();
        await page.getByTestId('edit-textarea').waitFor({ state: 'detached' });
        const stored = (await (await page.request.get(`/api/llm?id=${storyId}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data.main_text as string;
        expect(stored).toContain(`${TEXT[lang].prologue} EDITED.`);
        expect(stored).toContain(passage);
      } finally {
        await context.close();
      }
    });
  }

  it('edits a long story on a phone: the editor holds the part shown, widens on demand, and sends only the change', async () => {
    const { context, page, storyId, token } = await withStory(browser, 'en', { viewport: PHONE });
    try {
      // 2,500 passages, about 140,000 characters.
      const long = Array.from({ length: 2500 }, (_, i) => `Passage ${i}: the tide turns and Mara keeps watch.`).join('\n');
      const set = await page.request.patch(`/api/llm?id=${storyId}`, { headers: { Authorization: `Bearer ${token}` }, data: { main_text: long } });
      expect(set.status()).toBe(200);
      await page.goto(`/play?id=${storyId}`);
      await page.getByTestId('play-toolbar').waitFor();
      await page.getByTestId('toolbar-edit').click();
      const shown = await page.getByTestId('edit-textarea').inputValue();
      expect(shown.length).toBeLessThanOrEqual(30_000);
      expect(long.endsWith(shown)).toBe(true);
      expect(shown).toMatch(/^Passage \d+: /);
      await page.getByTestId('edit-earlier').waitFor();
      await screenshot(page, 'play-edit-long-en-phone');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await page.getByTestId('edit-textarea').fill(shown.replace('Passage 2499: the tide', 'Passage 2499: at last the tide'));
      const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes('/api/llm?'));
      await page.getByTestId('edit-confirm').click();
      const sent = (await patch).postData() ?? '';
      expect(sent.length).toBeLessThan(500);
      expect(JSON.parse(sent).main_text_edit).toMatchObject({ removed: '', inserted: 'at last ' });
      await page.getByTestId('edit-textarea').waitFor({ state: 'detached' });
      const stored = (await (await page.request.get(`/api/llm?id=${storyId}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data.main_text;
      expect(stored).toBe(long.replace('Passage 2499: the tide', 'Passage 2499: at last the tide'));
    } finally {
      await context.close();
    }
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`is usable at 375 px and hides the toolbar on a short window (${lang})`, async () => {
      const { context, page, storyId } = await withStory(browser, lang, { viewport: PHONE });
      try {
        await page.goto(`/play?id=${storyId}`);
        await page.getByTestId('play-toolbar').waitFor();
        await sendLine(page, lang === 'en' ? 'I look for the captain.' : '我去找船长。');
        await waitIdle(page);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(PHONE.width);
        await screenshot(page, `play-${lang}-phone`);
        await page.setViewportSize({ width: PHONE.width, height: 380 });
        await page.getByTestId('play-toolbar').waitFor({ state: 'hidden' });
        await page.setViewportSize(DESKTOP);
        await page.getByTestId('play-toolbar').waitFor();
        await screenshot(page, `play-${lang}-desktop`);
      } finally {
        await context.close();
      }
    });
  }
});
