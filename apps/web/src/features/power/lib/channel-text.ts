import { PowerReason, type PointsRecord } from '@taleloom/contracts';
import type { TFunction } from 'i18next';
import { formatNumber } from '../../../lib/intl-format';

/** The channel column of the power details (spec section 2): a translated text per reason, else the raw reason. */
export function channelText(record: Pick<PointsRecord, 'reason' | 'points' | 'storyInfo'>, t: TFunction): string {
  const storyName = record.storyInfo?.storyName?.trim();
  switch (record.reason) {
    case PowerReason.STORY:
      if (record.points > 0) return t('power.channel.storyShare', { storyName: storyName || t('power.channel.unnamedStory') });
      return storyName || t('power.channel.unnamedStory');
    case PowerReason.INVITE_USER_REGISTER:
      return t('power.channel.invite');
    case PowerReason.INIT_POINTS:
      return t('power.channel.bindPhone');
    case PowerReason.DAILY_CHECK_IN:
      return t('power.channel.dailyCheckIn');
    default:
      return record.reason;
  }
}

/** `+5,000` or `-120`, in the reader's number format. */
export function formatPoints(points: number, language: string): string {
  const formatted = formatNumber(Math.abs(points), language);
  if (points > 0) return `+${formatted}`;
  if (points < 0) return `-${formatted}`;
  return formatted;
}
