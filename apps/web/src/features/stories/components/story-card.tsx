import { PlayCircleOutlined } from '@ant-design/icons';
import type { StoryListItem } from '@taleloom/contracts';
import { Button, Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { textLanguage } from '../../../lib/text-language';
import { formatSnippet, formatStoryTime, formatStoryTitle, storyBadges, type StoryBadge, type StoryTab } from '../utils/story-format';
import { SquareStats } from './square-stats';

const BADGE_COLORS: Record<StoryBadge, string> = {
  pinned: 'red',
  restorePoint: 'orange',
  latest: 'green',
  myStory: 'geekblue',
  public: 'purple',
};

interface StoryCardProps {
  story: StoryListItem;
  tab: StoryTab;
  index: number;
  myUserID: string | null | undefined;
  starting: boolean;
  onStart: (story: StoryListItem) => void;
}

/** One story of a list: title, badges and time, snippet, the square's counters and a start button. */
export function StoryCard({ story, tab, index, myUserID, starting, onStart }: StoryCardProps) {
  const { t, i18n } = useTranslation();
  const title = formatStoryTitle(story, t('stories.untitled'));
  const badges = storyBadges(story, { tab, index, myUserID });
  const snippet = formatSnippet(story);
  return (
    <Card className="tl-story-card" data-testid="story-item" size="small">
      <div className="tl-story-card__head">
        <Typography.Title level={5} className="tl-story-card__title" ellipsis={{ tooltip: title }} data-testid="story-title" data-user-text lang={textLanguage(title)}>
          {title}
        </Typography.Title>
        <Button
          type="primary"
          icon={<PlayCircleOutlined aria-hidden="true" />}
          loading={starting}
          onClick={() => onStart(story)}
          data-testid="story-start"
          aria-label={t('stories.startStory', { title })}
        >
          {t('stories.start')}
        </Button>
      </div>
      <Space size={[4, 4]} wrap className="tl-story-card__badges">
        {badges.map((badge) => (
          <Tag key={badge} color={BADGE_COLORS[badge]} data-testid={`story-badge-${badge}`}>
            {t(`stories.badge.${badge}`)}
          </Tag>
        ))}
        <Typography.Text type="secondary" className="tl-story-card__time">
          {formatStoryTime(story.time, i18n.language)}
        </Typography.Text>
      </Space>
      <Typography.Paragraph
        type="secondary"
        className="tl-story-card__snippet"
        ellipsis={{ rows: 2 }}
        data-testid="story-snippet"
        {...(snippet ? { 'data-user-text': true, lang: textLanguage(snippet) } : {})}
      >
        {snippet || t('stories.noText')}
      </Typography.Paragraph>
      {tab === 'public' ? <SquareStats story={story} /> : null}
    </Card>
  );
}
