import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { XSS_PAYLOADS } from '../../api/test/support/xss-payloads';
import { launchBrowser, newPage, pressWhenStill, screenshot, signUpInBrowser, uniqueName } from './browser';

const baseURL = inject('baseURL');
// The local OpenAI-compatible stub (custom models point at it; empty with E2E_MODELS=demo).
const stubURL = inject('stubURL');

/** Records what a payload could do if it ever ran or ever became markup: dialogs and CSP violations. */
async function armTraps(context: BrowserContext, page: Page): Promise<string[]> {
  const events: string[] = [];
  page.on('dialog', (dialog) => {
    events.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __violations?: string[] };
      (w.__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return events;
}

/** Nothing ran, and nothing in the page is active markup made from stored text. */
async function expectInert(page: Page, where: string, events: string[]): Promise<void> {
  const report = await page.evaluate(() => {
    const w = window as unknown as { __pwned?: unknown; __violations?: string[] };
    const elements = Array.from(document.querySelectorAll('*'));
    const urls = elements.flatMap((e) => ['href', 'src', 'action', 'formaction', 'xlink:href'].map((a) => e.getAttribute(a) ?? ''));
    return {
      pwned: w.__pwned ?? null,
      violations: w.__violations ?? [],
      javascriptUrls: urls.filter((u) => /^\s*javascript:/i.test(u)),
      handlers: elements.flatMap((e) => Array.from(e.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName}[${a.name}]`)),
      injected: elements.filter((e) => ['IFRAME', 'OBJECT', 'EMBED', 'DETAILS'].includes(e.tagName) || (e.tagName === 'SCRIPT' && e.textContent?.includes('__pwned')) || (e.tagName === 'IMG' && e.getAttribute('src') === 'x')).map((e) => e.tagName),
    };
  });
  expect({ where, ...report, events }).toEqual({ where, pwned: null, violations: [], javascriptUrls: [], handlers: [], injected: [], events: [] });
}

describe('stored text stays inert in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('stories list, square, play and a shared link show <script>, onerror and javascript: links as plain text', async () => {
    const a = await newPage(browser, baseURL);
    const b = await newPage(browser, baseURL);
    try {
      const aEvents = await armTraps(a.context, a.page);
      const bEvents = await armTraps(b.context, b.page);
      const { token } = await signUpInBrowser(a.context, a.page, 'en', 'xssauthor', { closeDailyPowerDialog: true });
      await signUpInBrowser(b.context, b.page, 'en', 'xssreader', { closeDailyPowerDialog: true });
      const api = async (method: 'POST' | 'PATCH', path: string, data: object = {}) => {
        const res = await a.page.request.fetch(path, { method, data, headers: { Authorization: `Bearer ${token}` } });
        expect({ path, status: res.status() }).toEqual({ path, status: method === 'POST' && path === '/api/llm' ? 201 : 200 });
        return (await res.json()).data as { id: string };
      };
      const text = XSS_PAYLOADS.join('\n');
      // A name no other suite's story has: the square is shared by every browser suite, in any order.
      const tale = `Tale ${uniqueName('')}`;
      const name = `<img src=x onerror="window.__pwned=11"> ${tale}`;
      const { id: mine } = await api('POST', '/api/llm', { name: '<script>window.__pwned=12</script>', prologue_and_characters: text, role: '<b onmouseover=x>' });
      const { id: shared } = await api('POST', '/api/llm', { name, prologue_and_characters: text });
      await api('PATCH', `/api/llm?id=${shared}`, { main_text: `${text}\n[last](javascript:window.__pwned=13)` });
      await api('POST', `/api/user/public/${shared}`);

      // My list: both stories, names and snippets as text.
      await a.page.goto('/stories');
      await a.page.getByTestId('story-item').filter({ hasText: tale }).waitFor();
      expect(await a.page.getByTestId('story-list-mine').innerText()).toContain('<script>window.__pwned=12</script>');
      await expectInert(a.page, 'my stories', aEvents);

      // The square.
      await a.page.getByTestId('stories-tab-public').click();
      const item = a.page.getByTestId('story-list-public').getByTestId('story-item').filter({ hasText: tale });
      await item.waitFor();
      expect(await item.getByTestId('story-title').innerText()).toContain('<img src=x onerror=');
      await screenshot(a.page, 'security-square-en');
      await expectInert(a.page, 'square', aEvents);

      // Play: the whole text.
      await a.page.goto(`/play?id=${mine}`);
      await expect.poll(() => a.page.getByTestId('play-title').innerText()).toBe('<script>window.__pwned=12</script>');
      for (const payload of XSS_PAYLOADS) expect(await a.page.getByTestId('play-screen').innerText()).toContain(payload);
      await screenshot(a.page, 'security-play-en');
      await expectInert(a.page, 'play', aEvents);

      // Someone else opens the share link: the published version, in their own clone.
      await b.page.goto(`/play?id=${shared}`);
      await b.page.waitForURL((url) => url.pathname === '/play' && url.searchParams.get('id') !== shared, { timeout: 20_000 });
      await expect.poll(() => b.page.getByTestId('play-title').innerText()).toContain('<img src=x onerror=');
      await expect.poll(() => b.page.getByTestId('play-screen').innerText()).toContain('[last](javascript:window.__pwned=13)');
      await expectInert(b.page, 'shared link', bEvents);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('task groups and targets, custom model names and save slots show <script>, onerror and javascript: as plain text', async () => {
    const { context, page } = await newPage(browser, baseURL);
    try {
      const events = await armTraps(context, page);
      const { token } = await signUpInBrowser(context, page, 'en', 'xssowner', { closeDailyPowerDialog: true });
      const api = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, data?: object) => {
        const res = await page.request.fetch(path, { method, data, headers: { Authorization: `Bearer ${token}` } });
        expect({ path, ok: res.ok() }).toEqual({ path, ok: true });
        return res;
      };
      const json = async (res: Awaited<ReturnType<typeof api>>) => (await res.json()).data;

      const { id: storyId } = (await json(await api('POST', '/api/llm', { name: 'Payload pier', prologue_and_characters: 'Mara waits at the pier.', role: 'Mara' }))) as { id: string };

      // A save slot whose ending (the text's last line) is a payload.
      const ending = '<script>window.__pwned=41</script><img src=x onerror="window.__pwned=42">';
      await api('PATCH', `/api/llm?id=${storyId}`, { main_text: `Mara waits at the pier.\n${ending}` });
      await api('POST', '/api/archive/save', { story_id: storyId, archive_index: 0 });

      // Two task groups from the model's suggestions, renamed to payloads; the second follows the first.
      const stream = await (await api('POST', `/api/tasks/${storyId}/create`)).text();
      const suggestions = stream
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as { type: string; suggestions?: { batch: string } })
        .find((e) => e.type === 'task_suggestions');
      const batch = suggestions!.suggestions!.batch;
      type Group = { tasks_id: number; targets: { id: string; title: string; type: string; score: number }[] };
      const series = ['<img src=x onerror="window.__pwned=43">Harbour', '<script>window.__pwned=44</script>Storm'];
      const titles = ['<a href="javascript:window.__pwned=45">the key</a>', '[trust](javascript:window.__pwned=46)', '"><svg onload=window.__pwned=47>'];
      const groups: Group[] = [];
      for (const index of [0, 1]) {
        const { tasks_list } = (await json(await api('POST', `/api/tasks/${storyId}/add_new`, { batch, index }))) as { tasks_list: Group[] };
        groups.push(tasks_list.at(-1)!);
      }
      for (const [i, group] of groups.entries()) {
        await api('PUT', `/api/tasks/${storyId}/${group.tasks_id}`, {
          series_name: series[i],
          main_character: '<b onmouseover=window.__pwned=48>Mara</b>',
          // The suggested targets, renamed, plus new ones up to three.
          targets: titles.map((title, n) => ({ ...(group.targets[n] ?? { type: 'reality', score: 1 }), title })),
        });
      }
      await api('PUT', `/api/tasks/${storyId}/${groups[1].tasks_id}`, { preceding_task_groups: [groups[0].tasks_id] });

      // Custom models with payload names (and address), the story playing on one of them.
      const modelNames = ['<img src=x onerror="window.__pwned=51">', '<script>window.__pwned=52</script>', 'javascript:window.__pwned=53'];
      for (const [i, model_name] of modelNames.entries()) {
        const base_url = i === 0 && stubURL ? `${stubURL}/"><svg onload=window.__pwned=54>` : stubURL || 'https://api.example.com/v1';
        const created = await page.request.post('/api/custom-models', {
          data: { model_name, base_url, api_key: 'sk-xss-0000', model_type: 'compatible_openai' },
          headers: { Authorization: `Bearer ${token}` },
        });
        expect({ model_name, status: created.status() }).toEqual({ model_name, status: 201 });
      }
      await api('PATCH', `/api/llm?id=${storyId}`, { model_type: 'compatible_openai', model_name: modelNames[0] });

      await page.goto(`/play?id=${storyId}`);
      await page.getByTestId('play-textarea').waitFor();
      await expect.poll(() => page.getByTestId('model-selector').innerText()).toContain(modelNames[0]);
      await expectInert(page, 'play on a custom model', events);

      // The model selector lists every name as text.
      await expect.poll(() => page.getByTestId('model-selector').getByRole('combobox').isEnabled()).toBe(true);
      await page.getByTestId('model-selector').click();
      const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
      await dropdown.waitFor();
      for (const name of modelNames) await expect.poll(() => dropdown.innerText()).toContain(name);
      await screenshot(page, 'security-model-selector-en');
      await expectInert(page, 'model selector', events);

      // The custom model dialog: the list, a delete confirmation naming the model, the edit form.
      await pressWhenStill(page, 'model-selector-manage');
      await page.getByTestId('custom-model-list').waitFor();
      expect(await page.getByTestId('custom-model-item-name').allInnerTexts()).toEqual(expect.arrayContaining(modelNames));
      if (stubURL) expect(await page.getByTestId('custom-model-list').innerText()).toContain('/"><svg onload=window.__pwned=54>');
      await page.getByTestId('custom-model-delete').first().click();
      await page.locator('.ant-popconfirm').filter({ hasText: modelNames[0] }).waitFor();
      await expectInert(page, 'custom model delete confirmation', events);
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Cancel' }).click();
      await page.getByTestId('custom-model-edit').first().click();
      await expect.poll(() => page.getByTestId('custom-model-name').inputValue()).toBe(modelNames[0]);
      await screenshot(page, 'security-custom-model-dialog-en');
      await expectInert(page, 'custom model dialog', events);
      await page.keyboard.press('Escape');
      await page.getByTestId('custom-model-dialog').waitFor({ state: 'hidden' });

      // The archive dialog: the saved slot's ending as text.
      await page.getByTestId('toolbar-archive').click();
      const slot = page.getByTestId('archive-row-0');
      await expect.poll(() => slot.innerText()).toContain(ending);
      await screenshot(page, 'security-archive-en');
      await expectInert(page, 'archive dialog', events);
      await page.keyboard.press('Escape');
      await page.getByTestId('archive-dialog').waitFor({ state: 'hidden' });

      // The tasks dashboard: the group's name, main character and targets; the second group's relation names the first.
      await page.getByTestId('toolbar-task').click();
      await page.getByTestId('tasks-view').waitFor();
      await expect.poll(() => page.getByTestId('group-name').innerText()).toContain(series[0]);
      expect(await page.getByTestId('group-target').allInnerTexts()).toEqual(titles.map((title) => expect.stringContaining(title)));
      expect(await page.getByTestId('task-dashboard').innerText()).toContain('<b onmouseover=window.__pwned=48>Mara</b>');
      await screenshot(page, 'security-tasks-en');
      await expectInert(page, 'tasks dashboard', events);
      await page.getByTestId('tasks-pagination').locator('.ant-pagination-next').click();
      await expect.poll(() => page.getByTestId('group-name').innerText()).toContain(series[1]);
      await expect.poll(() => page.getByTestId('relations-preceding').innerText()).toContain(series[0]);
      await expectInert(page, 'tasks dashboard, second group', events);
      await page.getByTestId('group-edit').click();
      await expect.poll(() => page.getByTestId('edit-series-name').inputValue()).toBe(series[1]);
      expect(await page.getByTestId('edit-target-title').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(titles);
      await expectInert(page, 'task group editor', events);
    } finally {
      await context.close();
    }
  });

  it('the app works over plain HTTP on a host name that is not localhost (no upgrade to HTTPS), with its security headers', async () => {
    // A LAN name mapped to the loopback address: the browser treats it as an ordinary, non-secure origin.
    const port = new URL(baseURL).port;
    const lan = await launchBrowser(['--host-resolver-rules=MAP taleloom.test 127.0.0.1']);
    try {
      const { page } = await newPage(lan, `http://taleloom.test:${port}`);
      const response = await page.goto('/login');
      const headers = response!.headers();
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['referrer-policy']).toBe('no-referrer');
      await page.getByTestId('login-card').waitFor({ state: 'visible' });
    } finally {
      await lan.close();
    }
  });
});
