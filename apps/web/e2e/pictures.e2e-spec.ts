import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DESKTOP, launchBrowser, newPage, PHONE, pressWhenStill, screenshot, settled, signUpInBrowser, createStoryInBrowser } from './browser';

const baseURL = inject('baseURL');

// The browser tests' server draws with the offline demo generator (the embedded default); the stub
// model writes the picture prompts.
const TEXT = {
  en: {
    name: 'The night ferry',
    prologue: 'Mara: a ferry pilot with a red coat.\nMara waits at the pier at night. The ferry is late.',
    line: 'I light the lantern and wave at the ferry.',
    demo: 'Demo',
    on: 'On',
  },
  'zh-CN': {
    name: '夜航渡轮',
    prologue: '玛拉：穿红外套的渡轮驾驶员。\n夜里，玛拉在码头等船，渡轮晚点了。',
    line: '我点亮灯笼，朝渡轮挥手。',
    demo: '演示',
    on: '开',
  },
} as const;

// Each picture as laid out, with the first line of the passage it shows (the passage right after it).
const placements = (page: Page) =>
  page.getByTestId('story-picture').evaluateAll((figures) =>
    figures.map((figure) => {
      let passage = figure.nextElementSibling;
      while (passage && !passage.classList.contains('tl-passage')) passage = passage.nextElementSibling;
      const box = figure.getBoundingClientRect();
      const line = passage!.getClientRects()[0];
      return { top: box.top, bottom: box.bottom, left: box.left, right: box.right, passageTop: line.top, passageRight: line.right, passage: passage!.textContent ?? '' };
    }),
  );

const api = (page: Page, token: string) => ({
  story: async (id: string) =>
    (await (await page.request.get(`/api/llm?id=${id}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data,
});

describe('pictures in real Chromium: the camera illustrates the story', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`turns the camera on, plays a turn and sees its picture beside the passage (${lang})`, async () => {
      const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN' });
      try {
        const { token } = await signUpInBrowser(context, page, lang, 'painter', { closeDailyPowerDialog: true });
        const storyId = await createStoryInBrowser(page, token, { name: TEXT[lang].name, prologue_and_characters: TEXT[lang].prologue, role: 'Mara', settings_camera_switch: false });
        await page.goto(`/play?id=${storyId}`);
        await page.getByTestId('play-textarea').waitFor();
        // The camera is off: no camera buttons beside the passages.
        expect(await page.getByTestId('illustrate-passage').count()).toBe(0);

        // Turn the camera on in the settings panel (saved at once) and pick a portrait size.
        await page.getByTestId('toolbar-settings').click();
        await page.getByTestId('settings-panel').waitFor();
        await page.getByTestId('setting-camera').click();
        await expect.poll(async () => (await api(page, token).story(storyId)).settings_camera_switch).toBe(true);
        await page.getByTestId('setting-pic-size').click();
        // Once the list has stopped sliding in: a press during it can miss the option (a CI run did).
        await pressWhenStill(page, page.getByTitle('512 × 768'));
        await expect.poll(async () => (await api(page, token).story(storyId)).settings_pic_size).toBe('512*768');
        expect(await page.getByTestId('setting-camera-hint').innerText()).toContain(lang === 'en' ? 'demo pictures' : '演示配图');
        await page.locator('.tl-play-settings .ant-drawer-close').click();
        await page.getByTestId('settings-panel').waitFor({ state: 'hidden' });

        // Play a turn and save it: its picture is drawn in the background, then shown beside it.
        await page.getByTestId('play-textarea').fill(TEXT[lang].line);
        await page.getByTestId('play-textarea').press('Shift+Enter');
        await expect.poll(() => page.getByTestId('turn-continue').isEnabled()).toBe(true);
        await page.getByTestId('turn-save').click();
        const figure = page.getByTestId('story-picture');
        await figure.first().waitFor();
        const img = page.getByTestId('story-picture-img');
        await img.first().waitFor({ timeout: 20_000 });
        await expect.poll(() => img.first().evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth)).toBe(512);
        expect(await img.first().evaluate((el) => (el as HTMLImageElement).naturalHeight)).toBe(768);
        expect(await page.getByTestId('story-picture-demo').first().innerText()).toBe(TEXT[lang].demo);
        // It sits beside the saved passage (to its right on a wide screen).
        const pictureBox = (await figure.first().boundingBox())!;
        const textBox = (await page.getByTestId('play-text').boundingBox())!;
        expect(pictureBox.x + pictureBox.width).toBeGreaterThan(textBox.x + textBox.width * 0.8);
        const story = await api(page, token).story(storyId);
        const text = await page.getByTestId('play-text').innerText();
        expect(text).toContain(TEXT[lang].line);
        expect(story.main_text).toContain(TEXT[lang].line);

        // Any passage: the camera beside the first line of the prologue illustrates it too.
        await page.locator('.tl-passage').first().hover();
        await page.getByTestId('illustrate-passage').first().click();
        await expect.poll(() => img.count(), { timeout: 20_000 }).toBe(2);
        // Both drawn and laid out: loaded, and every picture's box still for three frames.
        await expect.poll(() => img.evaluateAll((els) => els.every((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0))).toBe(true);
        await settled(page, '[data-testid="story-picture"]');
        // Each picture sits level with its own passage (its top within a few pixels of the passage's first
        // line), right of the text; short passages do not push a later picture down below theirs.
        const desktop = await placements(page);
        expect(desktop.map((p) => p.passage.trim())).toEqual([TEXT[lang].prologue.split('\n')[0], `Mara${lang === 'en' ? ': ' : '：'}${TEXT[lang].line}`]);
        for (const p of desktop) {
          expect(Math.abs(p.top - p.passageTop)).toBeLessThanOrEqual(12);
          expect(p.left).toBeGreaterThanOrEqual(p.passageRight);
        }
        await screenshot(page, `pictures-${lang}-desktop`);
        // Scrolled to the end, as after a turn: the newest picture is whole above the input bar.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await settled(page, '[data-testid="story-picture"]');
        const input = (await page.locator('.tl-play-input').boundingBox())!;
        expect((await placements(page)).at(-1)!.bottom).toBeLessThanOrEqual(input.y);
        await screenshot(page, `pictures-${lang}-desktop-end`, { fullPage: false });
        await page.evaluate(() => window.scrollTo(0, 0));

        // A phone: pictures above their passages, nothing wider than the screen.
        await page.setViewportSize(PHONE);
        await settled(page, '[data-testid="story-picture"]');
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(PHONE.width);
        // Each picture right above its own passage.
        for (const p of await placements(page)) {
          expect(p.passageTop - p.bottom).toBeGreaterThanOrEqual(0);
          expect(p.passageTop - p.bottom).toBeLessThanOrEqual(32);
        }
        await screenshot(page, `pictures-${lang}-phone`);
        await page.setViewportSize(DESKTOP);

        // The pictures survive a reload.
        await page.reload();
        await expect.poll(() => page.getByTestId('story-picture-img').count(), { timeout: 20_000 }).toBe(2);
      } finally {
        await context.close();
      }
    });
  }
});
