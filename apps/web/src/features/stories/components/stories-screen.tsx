import { AppstoreOutlined, BarsOutlined, CloseCircleFilled, PlusOutlined } from '@ant-design/icons';
import { Button, Grid, Input, Segmented, Space, Tabs, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { getSession } from '../../../lib/storage';
import { STORY_PAGE_SIZE, useStories } from '../api/get-stories';
import { useStartStory } from '../hooks/use-start-story';
import { EMPTY_MINE_SWITCH_DELAY_MS, type StoryTab } from '../utils/story-format';
import { StoryList, type StoryView } from './story-list';
import './stories.css';

interface StoriesScreenProps {
  /** Header buttons of other features (the app composes them), told whether the user has a story. */
  renderActions?: (context: { hasStory: boolean }) => ReactNode;
}

/** The stories screen: my stories and the story square (spec section 2 "Stories screen"). */
export function StoriesScreen({ renderActions }: StoriesScreenProps = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The tab is in the address (`?tab=square`), so the top bar's story-square button and back/forward land on it.
  const [params, setParams] = useSearchParams();
  const tab: StoryTab = params.get('tab') === 'square' ? 'public' : 'mine';
  const setTab = (next: StoryTab) =>
    setParams(
      (old) => {
        const p = new URLSearchParams(old);
        if (next === 'public') p.set('tab', 'square');
        else p.delete('tab');
        return p;
      },
      { replace: true },
    );
  const [view, setView] = useState<StoryView>('single');
  const [search, setSearch] = useState<Record<StoryTab, string>>({ mine: '', public: '' });
  const screens = Grid.useBreakpoint();
  const { start, startingId } = useStartStory(tab);
  const myUserID = getSession().userInfo?.userID;

  // The first page of my stories decides two things: the new-story button and the empty-list switch.
  const mine = useStories({ square: false, pageSize: STORY_PAGE_SIZE, search: '' });
  const switched = useRef(false);
  useEffect(() => {
    if (switched.current || !mine.data || mine.data.pages[0]?.list.length) return;
    switched.current = true;
    const timer = setTimeout(() => setTab('public'), EMPTY_MINE_SWITCH_DELAY_MS);
    return () => clearTimeout(timer);
    // Once, when the first page arrives empty (setTab is a new function each render, with the same effect).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mine.data]);

  const list = (key: StoryTab) => (
    <StoryList
      tab={key}
      view={view}
      search={search[key]}
      myUserID={myUserID}
      startingId={startingId}
      onStart={start}
    />
  );

  // On a phone the tools go above the tabs, so the two tabs keep their room (no overflow menu).
  const narrow = !screens.sm;
  const tools = (
    <div className={`tl-stories-tools${narrow ? ' tl-stories-tools--narrow' : ''}`}>
      <Input.Search
        key={tab}
        allowClear={{ clearIcon: <CloseCircleFilled aria-label={t('common.clear')} /> }}
        defaultValue={search[tab]}
        placeholder={t('stories.searchPlaceholder')}
        aria-label={t('stories.searchPlaceholder')}
        onSearch={(value) => setSearch((old) => ({ ...old, [tab]: value }))}
        data-testid="stories-search"
        className="tl-stories-search"
      />
      <Segmented<StoryView>
        value={view}
        onChange={setView}
        options={[
          { value: 'single', icon: <BarsOutlined aria-hidden="true" />, title: t('stories.viewSingle') },
          { value: 'grid', icon: <AppstoreOutlined aria-hidden="true" />, title: t('stories.viewGrid') },
        ]}
        aria-label={t('stories.viewToggle')}
        data-testid="stories-view"
      />
    </div>
  );

  return (
    <div className="tl-page">
      <div className="tl-page__header">
        <div>
          <Typography.Title level={2} className="tl-page__title" data-testid="stories-heading">
            {t('stories.heading')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" className="tl-page__intro">
            {t('stories.intro')}
          </Typography.Paragraph>
        </div>
        <Space wrap>
          {renderActions?.({ hasStory: Boolean(mine.data?.pages[0]?.list.length) })}
          {mine.isPending ? null : (
            <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => navigate('/create')} data-testid="stories-new">
              {t('stories.newStory')}
            </Button>
          )}
        </Space>
      </div>
      <div className="tl-panel">
        {narrow ? tools : null}
        <Tabs
          activeKey={tab}
          onChange={(key) => setTab(key as StoryTab)}
          tabBarExtraContent={narrow ? undefined : tools}
          items={[
            { key: 'mine', label: <span data-testid="stories-tab-mine">{t('stories.tabMine')}</span>, children: list('mine') },
            { key: 'public', label: <span data-testid="stories-tab-public">{t('stories.tabPublic')}</span>, children: list('public') },
          ]}
        />
      </div>
    </div>
  );
}
