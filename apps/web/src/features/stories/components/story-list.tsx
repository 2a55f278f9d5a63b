import type { StoryListItem } from '@taleloom/contracts';
import { Alert, Button, Empty, Skeleton } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { STORY_PAGE_SIZE, useStories } from '../api/get-stories';
import type { StoryTab } from '../utils/story-format';
import { StoryCard } from './story-card';

export type StoryView = 'single' | 'grid';

interface StoryListProps {
  tab: StoryTab;
  view: StoryView;
  search: string;
  myUserID: string | null | undefined;
  startingId: string | null;
  onStart: (story: StoryListItem) => void;
}

/** One tab's stories as a single column or a grid; the next page loads when the end scrolls into view. */
export function StoryList({ tab, view, search, myUserID, startingId, onStart }: StoryListProps) {
  const { t } = useTranslation();
  const query = useStories({ square: tab === 'public', pageSize: STORY_PAGE_SIZE, search });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (query.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (query.isError) return <Alert type="error" showIcon title={getErrorMessage(query.error, t)} />;
  const list = query.data.pages.flatMap((p) => p.list);
  if (list.length === 0) {
    const empty = search ? t('stories.noMatch') : tab === 'mine' ? t('stories.emptyMine') : t('stories.emptyPublic');
    return <Empty className="tl-empty" description={empty} data-testid={`stories-empty-${tab}`} />;
  }
  return (
    <>
      <ul className={`tl-story-list tl-story-list--${view}`} data-testid={`story-list-${tab}`}>
        {list.map((story, index) => (
          <li key={story.id}>
            <StoryCard
              story={story}
              tab={tab}
              index={index}
              myUserID={myUserID}
              starting={startingId === story.id}
              onStart={onStart}
            />
          </li>
        ))}
      </ul>
      {hasNextPage ? (
        <div ref={sentinel} className="tl-story-more">
          <Button loading={isFetchingNextPage} onClick={() => void fetchNextPage()} data-testid="stories-load-more">
            {t('stories.loadMore')}
          </Button>
        </div>
      ) : null}
    </>
  );
}
