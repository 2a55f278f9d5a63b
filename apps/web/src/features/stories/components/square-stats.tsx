import type { StoryListItem } from '@taleloom/contracts';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/intl-format';

/** The square's counters of a public story, from the clones others played. */
export function SquareStats({ story }: { story: StoryListItem }) {
  const { t, i18n } = useTranslation();
  const stats = [
    ['players', story.unique_user_count],
    ['totalRounds', story.penetration_story_total_rounds],
    ['averageRounds', story.story_average_rounds],
    ['totalChars', story.additional_story_count],
    ['averageChars', story.story_average_count],
  ] as const;
  return (
    <dl className="tl-square-stats" data-testid="square-stats">
      {stats.map(([key, value]) => (
        <div key={key} className="tl-square-stats__item">
          <dt>{t(`stories.stats.${key}`)}</dt>
          <dd data-testid={`stat-${key}`}>{formatNumber(value, i18n.language, { maximumFractionDigits: 2 })}</dd>
        </div>
      ))}
    </dl>
  );
}
