import type { StoryListItem } from '@taleloom/contracts';
import { Alert, Empty, Pagination, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useStories } from '../api/get-stories';
import type { StoryTab } from '../utils/story-format';
import { StoryCard } from './story-card';

export const STORY_PAGE_SIZE = 12;
export type StoryView = 'single' | 'grid';

interface StoryListProps {
  tab: StoryTab;
  view: StoryView;
  search: string;
  page: number;
  onPageChange: (page: number) => void;
  myUserID: string | null | undefined;
  startingId: string | null;
  onStart: (story: StoryListItem) => void;
}

/** One tab's stories, paged, as a single column or a grid. */
export function StoryList({ tab, view, search, page, onPageChange, myUserID, startingId, onStart }: StoryListProps) {
  const { t } = useTranslation();
  const query = useStories({ square: tab === 'public', page, pageSize: STORY_PAGE_SIZE, search });
  if (query.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (query.isError) return <Alert type="error" showIcon title={getErrorMessage(query.error, t)} />;
  const { list, pagination } = query.data;
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
              page={pagination.page}
              myUserID={myUserID}
              starting={startingId === story.id}
              onStart={onStart}
            />
          </li>
        ))}
      </ul>
      {pagination.totalPages > 1 ? (
        <Pagination
          className="tl-story-pagination"
          current={pagination.page}
          pageSize={pagination.pageSize}
          total={pagination.total}
          showSizeChanger={false}
          onChange={onPageChange}
        />
      ) : null}
    </>
  );
}
