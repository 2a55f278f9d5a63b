import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, launchBrowser, newPage, PHONE, pressWhenStill, screenshot, settled, signUpInBrowser, still, createStoryInBrowser } from './browser';

const baseURL = inject('baseURL');
// The local OpenAI-compatible stub; the server runs with the operator allowance for 127.0.0.1.
const stubURL = inject('stubURL');

type Lang = 'en' | 'zh-CN';

/** A signed-in page for a new user with one story; answers the page, its token and the story id. */
async function withStory(browser: Browser, lang: Lang, viewport = DESKTOP) {
  const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN', viewport });
  const { token } = await signUpInBrowser(context, page, lang, 'modeler', { closeDailyPowerDialog: true });
  return { context, page, token, storyId: await createStoryInBrowser(page, token, { name: lang === 'en' ? 'The lighthouse' : '灯塔', prologue_and_characters: lang === 'en' ? 'Ada keeps the lighthouse.' : '阿达守着灯塔。', role: 'Ada' }) };
}

// The selector is disabled until the story's pending turn is known.
async function openSelector(page: Page) {
  await expect.poll(() => page.getByTestId('model-selector').getByRole('combobox').isEnabled()).toBe(true);
  await page.getByTestId('model-selector').click();
}

// Opens the dialog from the selector's "Custom models…" button. On a heavily loaded machine a click on
// the opening dropdown was once lost, and once waited for it to be stable: then the page is kept for a
// look and the click is tried again.
// A click on an option of a list still opening can be lost (it happened once in CI: the address stayed
// empty): the list is opened afresh and the option chosen again.
async function choosePreset(page: Page, label: string, url: string) {
  for (let attempt = 1; ; attempt++) {
    await page.getByTestId('custom-model-preset').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText(label).click({ timeout: 5_000 });
    try {
      await expect.poll(() => page.getByTestId('custom-model-url').inputValue(), { timeout: 5_000 }).toBe(url);
      return;
    } catch (error) {
      await screenshot(page, `custom-models-preset-retry-${attempt}`);
      if (attempt === 2) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

async function openDialog(page: Page) {
  for (let attempt = 1; ; attempt++) {
    await openSelector(page);
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor();
    try {
      // A click on a button of a dropdown still moving can wait for it to be stable past any timeout
      // (it happened in CI and in a local full run, zh-CN at 375 px): it is pressed once the list has
      // stopped sliding in, and tried again with the dropdown opened afresh.
      await pressWhenStill(page, 'model-selector-manage');
      await page.getByTestId('custom-model-intro').waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      await screenshot(page, `custom-models-open-retry-${attempt}`);
      if (attempt === 2) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

async function pickModel(page: Page, name: string) {
  await openSelector(page);
  await pressWhenStill(page, page.locator('.ant-select-dropdown .tl-play-model__name', { hasText: name }));
}

const noOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('custom models in real Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adds a model pointing at the local stub, tests it, plays a turn with its reasoning apart, and deletes it', async () => {
    expect(stubURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const { context, page, storyId, token } = await withStory(browser, 'en');
    try {
      await page.goto(`/play?id=${storyId}`);
      await page.getByTestId('play-textarea').waitFor();
      await openDialog(page);
      expect(await page.getByTestId('custom-model-intro').innerText()).toContain('costs no power');
      await pressWhenStill(page, 'custom-model-add');

      // A shortcut fills the address; an incomplete form says so.
      await choosePreset(page, 'Ollama (this computer)', 'http://localhost:11434/v1');
      await page.getByTestId('custom-model-save').click();
      await page.getByText('Please fill in all required fields.').waitFor();

      await page.getByTestId('custom-model-name').fill('my-stub');
      await page.getByTestId('custom-model-url').fill(`${stubURL}/chat/completions`);
      await page.getByText('Remove /chat/completions').waitFor();
      await page.getByTestId('custom-model-url').fill(stubURL);
      await page.getByTestId('custom-model-key').fill('sk-e2e-secret-7890');
      await page.getByTestId('custom-model-reasoning').click();
      await page.getByTestId('custom-model-test').click();
      await expect.poll(() => page.getByTestId('custom-model-test-ok').innerText()).toMatch(/^Connected in \d+ ms\./);
      await screenshot(page, 'custom-models-form-tested-en-desktop');
      await page.getByTestId('custom-model-save').click();
      await expect.poll(() => page.getByTestId('custom-model-item-name').innerText()).toBe('my-stub');
      expect(await page.getByTestId('custom-model-list').innerText()).toContain('••••7890');
      await page.keyboard.press('Escape');
      await page.getByTestId('custom-model-dialog').waitFor({ state: 'hidden' });

      // The selector groups the models; the custom one is free (the user's key).
      await openSelector(page);
      await page.locator('.ant-select-dropdown').getByText('My models').waitFor();
      expect(await page.locator('.ant-select-dropdown').innerText()).toContain('free · your key');
      await screenshot(page, 'custom-models-selector-en-desktop');
      await page.keyboard.press('Escape');
      await pickModel(page, 'my-stub');
      await expect
        .poll(async () => (await (await page.request.get(`/api/llm?id=${storyId}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data)
        .toMatchObject({ model_type: 'compatible_openai', model_name: 'my-stub' });

      // A turn with it: the reasoning shows folded above the AI part and never enters the text. (The
      // list has closed and the page is at rest first.)
      await settled(page);
      await page.getByTestId('play-textarea').fill('[[reason]] I climb the stairs.');
      await page.getByTestId('play-textarea').press('Shift+Enter');
      await expect.poll(() => page.getByTestId('turn-ai').innerText()).toMatch(/The lamp flickered and the story went on\.$/);
      await expect.poll(() => page.getByTestId('turn-continue').isEnabled()).toBe(true);
      const reasoning = page.locator('.tl-play-turn__reasoning');
      expect(await reasoning.locator('summary').innerText()).toBe("The model's reasoning");
      expect(await reasoning.getAttribute('open')).toBeNull();
      await reasoning.locator('summary').click();
      expect(await reasoning.innerText()).toContain('Thinking about it.');
      expect(await page.getByTestId('turn-ai').innerText()).not.toContain('Thinking');
      await screenshot(page, 'custom-models-turn-en-desktop');
      await page.getByTestId('turn-save').click();
      await page.getByTestId('turn-card').waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('play-text').innerText()).toContain('The lamp flickered');
      expect(await page.getByTestId('play-text').innerText()).not.toContain('Thinking');

      // Delete it: the story goes back to the platform default.
      await openDialog(page);
      await page.getByTestId('custom-model-delete').click();
      await page.getByTestId('custom-model-delete-ok').click();
      await page.getByText('my-stub deleted').waitFor();
      await page.locator('.ant-empty').waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('model-selector').innerText()).toContain('Stub model');
      const list = await page.request.get('/api/custom-models', { headers: { Authorization: `Bearer ${token}` } });
      expect((await list.json()).data).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      const size = viewport === DESKTOP ? 'desktop' : 'phone';
      it(`shows the dialog in ${lang} at ${viewport.width} px`, async () => {
        const { context, page, storyId, token } = await withStory(browser, lang, viewport);
        try {
          const added = await page.request.post('/api/custom-models', {
            headers: { Authorization: `Bearer ${token}` },
            data: { model_name: 'deepseek-reasoner', base_url: stubURL, api_key: 'sk-shot-abcd1234', model_type: 'compatible_openai', enable_reasoning: true },
          });
          expect(added.status()).toBe(201);
          await page.goto(`/play?id=${storyId}`);
          await page.getByTestId('play-textarea').waitFor();
          await openDialog(page);
          await page.getByTestId('custom-model-item').waitFor();
          await still(page);
          expect(await noOverflow(page)).toBeLessThanOrEqual(viewport.width);
          await screenshot(page, `custom-models-list-${lang}-${size}`);
          await pressWhenStill(page, 'custom-model-add');
          await page.getByTestId('custom-model-save').click();
          await page.getByText(lang === 'en' ? 'Please fill in all required fields.' : '请填写所有必填项。').waitFor();
          await still(page);
          expect(await noOverflow(page)).toBeLessThanOrEqual(viewport.width);
          await screenshot(page, `custom-models-form-${lang}-${size}`);
        } finally {
          await context.close();
        }
      });
    }
  }
});
