import { SCORE_DIALOG_CLOSE_MS } from '@taleloom/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, launchBrowser, newPage, PHONE, screenshot, signUpInBrowser, createStoryInBrowser, pressWhenStill } from './browser';

const baseURL = inject('baseURL');

// The stub suggests three fixed groups in the story's language and completes a target when a line of
// the story contains its title (quoting that line).
const TEXT = {
  en: {
    prologue: 'Mara waits at the pier. The ferry is late.',
    groups: ['Harbour secrets', 'Before the storm', 'Old debts'],
    counter: 'Set 2 of 3',
    firstTarget: 'Find the lighthouse key',
    secondTarget: "Earn the harbour master's trust",
    line: 'I find the lighthouse key under a stone.',
    evidence: 'Mara: I find the lighthouse key under a stone.',
    secondLine: "At last I earn the harbour master's trust.",
    blankErrors: ['Task 3 · Title: failed, it must not be empty', 'Task 3 · Type: failed, choose one of the options', 'Task 3 · Score: failed, choose one of the options'],
    newTitle: 'Light the lighthouse lamp',
    typeOption: 'Emotion',
    scoreOption: '2 points',
    success: 'Score updated',
    alreadyScored: 'The score for the current plot was already calculated',
    mode: 'Game master',
  },
  'zh-CN': {
    prologue: '玛拉在码头等船，渡轮晚点了。',
    groups: ['港口的秘密', '风暴之前', '旧债'],
    counter: '第 2 组，共 3 组',
    firstTarget: '找到灯塔钥匙',
    secondTarget: '赢得港务长的信任',
    line: '我在石头下找到灯塔钥匙。',
    evidence: 'Mara：我在石头下找到灯塔钥匙。',
    secondLine: '我终于赢得港务长的信任。',
    blankErrors: ['任务 3 · 标题：失败，不能为空', '任务 3 · 类型：失败，请从选项中选择', '任务 3 · 分值：失败，请从选项中选择'],
    newTitle: '点亮灯塔的灯',
    typeOption: '情感',
    scoreOption: '2 分',
    success: '分数已更新',
    alreadyScored: '当前剧情的分数已经计算过了',
    mode: '主持',
  },
} as const;
type Lang = keyof typeof TEXT;

async function sendAndSave(page: Page, line: string) {
  await page.getByTestId('play-textarea').fill(line);
  await page.getByTestId('play-textarea').press('Shift+Enter');
  await expect.poll(() => page.getByTestId('turn-continue').isEnabled()).toBe(true);
  await page.getByTestId('turn-save').click();
  await page.getByTestId('turn-card').waitFor({ state: 'detached' });
}

// Picks an option of an antd Select by its visible text.
async function choose(page: Page, select: ReturnType<Page['getByTestId']>, option: string) {
  await select.click();
  await pressWhenStill(page, page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).first());
}

interface DialogTimes {
  shown?: number;
  closed?: number;
}

// Times the score dialog in the page itself (a slow screenshot or round trip of the test cannot skew it):
// when the success tick appears, and when the dialog has left the page.
async function timeScoreDialog(page: Page): Promise<() => Promise<DialogTimes>> {
  await page.evaluate(() => {
    const times: DialogTimes = {};
    (window as unknown as { scoreDialogTimes: DialogTimes }).scoreDialogTimes = times;
    const observer = new MutationObserver(() => {
      if (times.shown === undefined && document.querySelector('[data-testid="score-success"] .tl-tasks-score__tick')) times.shown = performance.now();
      if (times.shown !== undefined && !document.querySelector('[data-testid="score-dialog"]')) {
        times.closed = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { scoreDialogTimes: DialogTimes }).scoreDialogTimes);
}

async function openDashboard(page: Page) {
  await page.getByTestId('toolbar-task').click();
  await page.getByTestId('task-dashboard').waitFor();
}

async function closeDashboard(page: Page) {
  await page.locator('.tl-tasks .ant-modal-close').click();
  await page.getByTestId('task-dashboard').waitFor({ state: 'detached' });
}

describe('tasks in real Chromium: suggest, accept, edit, relate, score', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'zh-CN'] as const satisfies readonly Lang[]) {
    it(`creates, accepts, edits and scores task groups (${lang})`, async () => {
      const L = TEXT[lang];
      const { context, page } = await newPage(browser, baseURL, { locale: lang === 'en' ? 'en-US' : 'zh-CN' });
      try {
        const { token } = await signUpInBrowser(context, page, lang, 'tasker', { closeDailyPowerDialog: true });
        const storyId = await createStoryInBrowser(page, token, { name: lang === 'en' ? 'The late ferry' : '晚点的渡轮', prologue_and_characters: L.prologue, role: 'Mara' });
        await page.goto(`/play?id=${storyId}`);
        await page.getByTestId('play-text').waitFor();

        // No group yet: the dashboard opens on the suggestions; they stream in; switch set cycles them.
        await openDashboard(page);
        await page.getByTestId('tasks-init').waitFor();
        await page.getByTestId('suggestion-create').click();
        await expect.poll(() => page.getByTestId('suggestion-name').innerText()).toBe(L.groups[0]);
        await expect.poll(() => page.getByTestId('suggestion-accept').isEnabled()).toBe(true);
        await page.getByTestId('suggestion-switch').click();
        expect(await page.getByTestId('suggestion-name').innerText()).toBe(L.groups[1]);
        expect(await page.getByTestId('suggestion-counter').innerText()).toBe(L.counter);
        await screenshot(page, `tasks-init-${lang}-desktop`);
        await page.setViewportSize(PHONE);
        await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
        await screenshot(page, `tasks-init-${lang}-phone`);
        await page.setViewportSize(DESKTOP);
        await page.getByTestId('suggestion-switch').click();
        await page.getByTestId('suggestion-switch').click();
        expect(await page.getByTestId('suggestion-name').innerText()).toBe(L.groups[0]);

        // Accept: the task view shows the group.
        await page.getByTestId('suggestion-accept').click();
        await page.getByTestId('tasks-view').waitFor();
        expect(await page.getByTestId('group-name').innerText()).toBe(L.groups[0]);
        expect(await page.getByTestId('group-target').count()).toBe(2);

        // Edit: a new target in the shape of the first, blank; the server's errors read task, field, failed, reason.
        await page.getByTestId('group-edit').click();
        await page.getByTestId('edit-add-target').click();
        expect(await page.getByTestId('edit-target').count()).toBe(3);
        await page.getByTestId('edit-save').click();
        await page.getByTestId('edit-errors').waitFor();
        const errors = await page.getByTestId('edit-errors').locator('li').allInnerTexts();
        expect(errors).toEqual(L.blankErrors);
        await page.getByTestId('edit-target-title').nth(2).fill(L.newTitle);
        await choose(page, page.getByTestId('edit-target-type').nth(2), L.typeOption);
        await choose(page, page.getByTestId('edit-target-score').nth(2), L.scoreOption);
        await page.getByTestId('edit-save').click();
        await page.getByTestId('tasks-view').waitFor();
        await expect.poll(() => page.getByTestId('group-target').count()).toBe(3);
        expect(await page.getByTestId('group-target').nth(2).innerText()).toContain(L.newTitle);

        // The play mode saves at once.
        await choose(page, page.getByTestId('tasks-play-mode'), L.mode);
        await expect
          .poll(async () => (await (await page.request.get(`/api/llm?id=${storyId}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data.play_mode)
          .toBe('tasks_master');
        await closeDashboard(page);

        // Play a line that does the first task, then score: the dialog streams the verdicts, ticks and closes.
        await sendAndSave(page, L.line);
        await openDashboard(page);
        const dialogTimes = await timeScoreDialog(page);
        await page.getByTestId('group-score-button').click();
        await page.getByTestId('score-success').waitFor();
        expect(await page.getByTestId('score-success').innerText()).toContain(L.success);
        expect(await page.locator('[data-testid="score-success"] .tl-tasks-score__tick').isVisible()).toBe(true);
        expect(await page.getByTestId('verdict-done').count()).toBe(1);
        expect(await page.getByTestId('score-dialog').innerText()).toContain(L.evidence);
        await screenshot(page, `tasks-score-${lang}-desktop`);
        await page.getByTestId('score-dialog').waitFor({ state: 'detached', timeout: SCORE_DIALOG_CLOSE_MS + 5000 });
        // Open for 3 s after the tick, then gone once its closing animation ran (the timer may start a
        // moment before the observer notes the tick: 50 ms of slack).
        const { shown, closed } = await dialogTimes();
        expect([typeof shown, typeof closed]).toEqual(['number', 'number']);
        expect(closed! - shown!).toBeGreaterThanOrEqual(SCORE_DIALOG_CLOSE_MS - 50);
        expect(closed! - shown!).toBeLessThan(SCORE_DIALOG_CLOSE_MS + 2000);
        await expect.poll(() => page.getByTestId('target-done').count()).toBe(1);
        expect(await page.getByTestId('target-evidence').innerText()).toContain(L.evidence);
        expect(await page.getByTestId('group-score').innerText()).toMatch(/^\s*2 \/ 5/);
        expect(await page.getByTestId('tasks-total-score').innerText()).toMatch(/^2/);
        await screenshot(page, `tasks-dashboard-${lang}-desktop`);

        // Again on the same turn: a warning, not a new score.
        await page.getByTestId('group-score-button').click();
        await page.locator('.ant-message-warning').filter({ hasText: L.alreadyScored }).waitFor();

        // At phone width: the dashboard fits, and the next scoring shows its dialog there too.
        await page.setViewportSize(PHONE);
        await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
        await screenshot(page, `tasks-dashboard-${lang}-phone`);
        // A phone's keyboard makes the window short: the toolbar goes, the dashboard it opened stays.
        await page.setViewportSize({ width: PHONE.width, height: 380 });
        await page.getByTestId('play-toolbar').waitFor({ state: 'hidden' });
        expect(await page.getByTestId('task-dashboard').isVisible()).toBe(true);
        await page.setViewportSize(PHONE);
        await page.getByTestId('play-toolbar').waitFor();
        await closeDashboard(page);
        await sendAndSave(page, L.secondLine);
        await openDashboard(page);
        await page.getByTestId('group-score-button').click();
        await page.getByTestId('score-success').waitFor();
        await screenshot(page, `tasks-score-${lang}-phone`);
        await page.getByTestId('score-close').click();
        await page.getByTestId('score-dialog').waitFor({ state: 'detached' });
        await expect.poll(() => page.getByTestId('target-done').count()).toBe(2);

        // A second group from the same suggestions; its relation to the first is saved when the selector loses focus.
        await page.setViewportSize(DESKTOP);
        await page.getByTestId('tasks-new-group').click();
        await page.getByTestId('suggestion-switch').click();
        await page.getByTestId('suggestion-accept').click();
        await expect.poll(() => page.getByTestId('group-name').innerText()).toBe(L.groups[1]);
        await choose(page, page.getByTestId('relations-preceding'), `#1 ${L.groups[0]}`);
        await page.getByTestId('group-name').click();
        const relations = async () =>
          (await (await page.request.get(`/api/tasks?story_id=${storyId}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data.tasks_list.map(
            (g: { preceding_task_groups: number[]; subsequent_task_groups: number[] }) => [g.preceding_task_groups, g.subsequent_task_groups],
          );
        await expect.poll(relations).toEqual([[[], [2]], [[1], []]]);
      } finally {
        await context.close();
      }
    });
  }
});
