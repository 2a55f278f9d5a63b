import iconv from 'iconv-lite';
import { crc32 } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage, PHONE, screenshot, signUpInBrowser, uniqueName, pressWhenStill } from './browser';

const baseURL = inject('baseURL');

const TEXT = {
  en: { unsupported: 'File type not supported', brand: 'TaleLoom', saved: 'Saved to Slot 1', loaded: 'Loaded Slot 1', finished: 'Imported' },
  'zh-CN': { unsupported: '不支持该文件类型', brand: '织梦故事', saved: '已保存到存档 1', loaded: '已读取存档 1', finished: '已导入' },
} as const;
type Lang = keyof typeof TEXT;

const MANUSCRIPT = '第一章 灯塔\n守塔人在旧箱子里找到一封信。\nThe letter was fifty years old.';

function cardPng(): Buffer {
  const png = new PNG({ width: 8, height: 8 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([90, 60, 160, 255], i);
  const plain = PNG.sync.write(png);
  const card = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Mira', description: '{{char}} keeps the light.', first_mes: 'Mira waves.' } };
  const data = Buffer.concat([Buffer.from('chara\0', 'latin1'), Buffer.from(Buffer.from(JSON.stringify(card)).toString('base64'), 'latin1')]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write('tEXt', 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([plain.subarray(0, plain.length - 12), head, data, crc, plain.subarray(plain.length - 12)]);
}

async function signedIn(browser: Browser, lang: Lang, viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; token: string }> {
  const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN', viewport });
  const { token } = await signUpInBrowser(context, page, lang, 'filer');
  return { context, page, token };
}

const upload = (page: Page, name: string, mimeType: string, buffer: Buffer) =>
  page.getByTestId('manuscript-upload').locator('input[type=file]').setInputFiles({ name, mimeType, buffer });

describe('files in real Chromium: upload, export, archive save/load', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`imports a GBK manuscript and a card, exports docx, saves and loads an archive (${lang})`, async () => {
      const { context, page, token } = await signedIn(browser, lang);
      try {
        await page.goto('/create');
        const storyName = `${lang === 'en' ? 'Lighthouse' : '灯塔'} ${uniqueName('')}`;
        await page.getByTestId('create-name').fill(storyName);

        // A GBK text file: decoded on the server, put into the empty prologue field.
        await upload(page, '灯塔.txt', 'text/plain', iconv.encode(MANUSCRIPT, 'gbk'));
        await expect.poll(() => page.getByTestId('create-prologue').inputValue()).toBe(MANUSCRIPT);
        await expect.poll(() => page.getByTestId('upload-item').first().getAttribute('data-state')).toBe('finished');

        // A renamed executable: an error item with the translated message and a retry button.
        const exe = Buffer.alloc(512);
        exe.write('MZ', 0, 'latin1');
        await upload(page, 'story.txt', 'text/plain', exe);
        await expect.poll(() => page.getByTestId('upload-error').innerText()).toContain(TEXT[lang].unsupported);
        await expect.poll(() => page.getByTestId('upload-retry').count()).toBe(1);

        // A character card into a field with text asks append or replace: append.
        await upload(page, 'mira.png', 'image/png', cardPng());
        await pressWhenStill(page, 'upload-append');
        await expect.poll(() => page.getByTestId('create-prologue').inputValue()).toMatch(/^第一章 灯塔[\s\S]*Mira keeps the light\.[\s\S]*Mira waves\.$/);
        await screenshot(page, `files-create-${lang}`);

        await page.getByTestId('create-submit').click();
        await page.waitForURL(/\/play\?id=/);
        const storyId = new URL(page.url()).searchParams.get('id')!;
        await page.getByTestId('play-text').waitFor();

        // Export docx: the download carries the server's name and a real docx (a zip).
        await page.getByTestId('toolbar-export').click();
        const downloading = page.waitForEvent('download');
        await pressWhenStill(page, 'export-docx');
        const download = await downloading;
        expect(download.suggestedFilename()).toMatch(new RegExp(`^${TEXT[lang].brand}-.+-\\d{8}-\\d{6}\\.docx$`));
        const stream = await download.createReadStream();
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).subarray(0, 2).toString('latin1')).toBe('PK');

        // Archive: save into slot 1 (index 0), change the story, then load the slot back.
        await page.getByTestId('toolbar-archive').click();
        const dialog = page.getByTestId('archive-dialog');
        await pressWhenStill(page, dialog.getByTestId('archive-row-0'));
        expect(await dialog.getByTestId('archive-load').isDisabled()).toBe(true);
        await dialog.getByTestId('archive-save').click();
        await expect.poll(() => page.locator('.ant-message').innerText()).toContain(TEXT[lang].saved);
        await expect.poll(() => dialog.getByTestId('archive-row-0').innerText()).toMatch(/\d/);
        await screenshot(page, `files-archive-${lang}`);
        // Saving over it asks first.
        await dialog.getByTestId('archive-save').click();
        await pressWhenStill(page, 'archive-overwrite-ok');
        await page.keyboard.press('Escape');

        const patch = await page.request.patch(`/api/llm?id=${storyId}`, {
          headers: { Authorization: `Bearer ${token}` },
          data: { main_text: 'Everything changed.' },
        });
        expect(patch.status()).toBe(200);
        await page.reload();
        await expect.poll(() => page.getByTestId('play-text').innerText()).toBe('Everything changed.');

        await page.getByTestId('toolbar-archive').click();
        await dialog.getByTestId('archive-view').getByText(/[(（]1[)）]/).click();
        await pressWhenStill(page, dialog.getByTestId('archive-row-0'));
        await dialog.getByTestId('archive-load').click();
        await pressWhenStill(page, 'archive-load-ok');
        await expect.poll(() => page.locator('.ant-message').innerText()).toContain(TEXT[lang].loaded);
        await expect.poll(() => page.getByTestId('play-text').innerText()).toContain('守塔人在旧箱子里找到一封信。');
      } finally {
        await context.close();
      }
    });

    it(`looks right on a phone (${lang})`, async () => {
      const { context, page } = await signedIn(browser, lang, PHONE);
      try {
        await page.goto('/create');
        await upload(page, 'notes.md', 'text/markdown', Buffer.from('# Notes\nA short prologue.'));
        await upload(page, 'archive.zip', 'application/zip', Buffer.from('PK'));
        await expect.poll(() => page.getByTestId('upload-item').count()).toBe(2);
        // The manuscript's text in the prologue before the form is sent (sent sooner, the empty field
        // fails the form's check and nothing is created).
        await expect.poll(() => page.getByTestId('create-prologue').inputValue()).toContain('A short prologue.');
        await screenshot(page, `files-create-phone-${lang}`);
        await pressWhenStill(page, 'create-submit');
        await page.waitForURL(/\/play\?id=/);
        await page.getByTestId('play-text').waitFor();
        await screenshot(page, `files-play-phone-${lang}`);
        await page.getByTestId('toolbar-archive').click();
        await page.getByTestId('archive-row-2').waitFor();
        // The dialog's buttons are on screen on a phone without scrolling the page: the slots scroll inside it.
        for (const id of ['archive-save', 'archive-load']) {
          const box = (await page.getByTestId(id).boundingBox())!;
          expect(box.y).toBeGreaterThan(0);
          expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
        }
        await screenshot(page, `files-archive-phone-${lang}`);
      } finally {
        await context.close();
      }
    });
  }
});
