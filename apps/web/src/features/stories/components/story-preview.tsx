import type { StoryData } from '@taleloom/contracts';
import { Alert, Skeleton, Space, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useStory } from '../api/get-story';
import { useOpenStory } from '../hooks/use-open-story';
import { formatStoryTitle } from '../utils/story-format';
import { PublishMenu } from './publish-menu';
import './stories.css';

/**
 * What /play shows until the play screen arrives: opening a story by the rules of spec section 4,
 * then its title, text and the publish / share controls.
 */
export function StoryPreview({ id, renderActions }: { id: string | null; renderActions?: (story: StoryData) => ReactNode }) {
  const { t } = useTranslation();
  const phase = useOpenStory(id);
  const story = useStory(id, phase === 'ready');

  if (phase === 'cloning' || phase === 'cloned') {
    return (
      <div className="tl-page" data-testid="play-cloning">
        <Spin size="large" />
        <Typography.Paragraph>{phase === 'cloned' ? t('play.cloned') : t('play.cloning')}</Typography.Paragraph>
      </div>
    );
  }
  if (phase !== 'ready' || story.isPending) return <div className="tl-page"><Skeleton active paragraph={{ rows: 8 }} /></div>;
  if (story.isError) return <div className="tl-page"><Alert type="error" showIcon title={getErrorMessage(story.error, t)} /></div>;
  return <StoryView story={story.data} renderActions={renderActions} />;
}

function StoryView({ story, renderActions }: { story: StoryData; renderActions?: (story: StoryData) => ReactNode }) {
  const { t } = useTranslation();
  const title = formatStoryTitle(story, t('stories.untitled'));
  return (
    <div className="tl-page" data-testid="play-screen">
      <div className="tl-preview-toolbar">
        <Typography.Title level={3} className="tl-page__title" data-testid="play-title">
          {title}
        </Typography.Title>
        <Space wrap>
          {renderActions?.(story)}
          {story.isOwner ? <PublishMenu story={story} /> : null}
        </Space>
      </div>
      <div className="tl-panel">
        <Typography.Paragraph className="tl-story-text" data-testid="play-text">
          {story.main_text}
        </Typography.Paragraph>
        <Typography.Text type="secondary">{t('play.charCount', { count: [...story.main_text].length })}</Typography.Text>
      </div>
    </div>
  );
}
