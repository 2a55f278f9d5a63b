import { PowerReason } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { channelText, formatPoints } from './channel-text';

const row = (reason: string, points: number, storyName: string | null = null) => ({ reason, points, storyInfo: { storyName } });

describe('channelText', () => {
  it.each([
    ['en', row(PowerReason.STORY, 30, 'The Lighthouse'), 'Creation share: The Lighthouse'],
    ['en', row(PowerReason.STORY, -120, 'The Lighthouse'), 'The Lighthouse'],
    ['en', row(PowerReason.STORY, -120, null), 'Untitled story'],
    ['en', row(PowerReason.STORY, -120, '   '), 'Untitled story'],
    ['en', row(PowerReason.STORY, 30, null), 'Creation share: Untitled story'],
    ['en', row(PowerReason.INVITE_USER_REGISTER, 100000), 'Prized invitation'],
    ['en', row(PowerReason.INIT_POINTS, 100000), 'Bind phone'],
    ['en', row(PowerReason.DAILY_CHECK_IN, 5000), 'Daily check-in'],
    ['en', row('lottery_2024', 10), 'lottery_2024'],
    ['zh-CN', row(PowerReason.STORY, 30, '灯塔'), '创作分成：灯塔'],
    ['zh-CN', row(PowerReason.STORY, -5, null), '未命名故事'],
    ['zh-CN', row(PowerReason.INVITE_USER_REGISTER, 100000), '有奖邀请'],
    ['zh-CN', row(PowerReason.INIT_POINTS, 100000), '绑定手机'],
    ['zh-CN', row(PowerReason.DAILY_CHECK_IN, 5000), '每日签到'],
    ['zh-CN', row('unknown_reason', 1), 'unknown_reason'],
  ])('in %s, %j reads %s', async (lang, record, expected) => {
    await i18n.changeLanguage(lang);
    expect(channelText(record, i18n.t)).toBe(expected);
  });

  it('translates every reason the product writes', async () => {
    for (const lang of ['en', 'zh-CN']) {
      await i18n.changeLanguage(lang);
      for (const reason of Object.values(PowerReason)) {
        expect(channelText(row(reason, 1, 'S'), i18n.t), `${lang} ${reason}`).not.toBe(reason);
      }
    }
  });
});

describe('formatPoints', () => {
  it('signs and groups amounts', () => {
    expect(formatPoints(5000, 'en')).toBe('+5,000');
    expect(formatPoints(-120, 'en')).toBe('-120');
    expect(formatPoints(0, 'en')).toBe('0');
  });
});
