import { PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Button, Empty, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { PowerDialog } from '../../features/power/components/power-dialog';
import { useDailyPowerDialog } from '../../features/power/hooks/use-daily-power-dialog';
import './screens.css';

type StoriesTab = 'mine' | 'public';

export function StoriesRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [tab, setTab] = useState<StoriesTab>('mine');
  const powerDialog = useDailyPowerDialog();

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
          <Button icon={<ThunderboltOutlined aria-hidden="true" />} onClick={powerDialog.show} data-testid="stories-get-power">
            {t('stories.getPower')}
          </Button>
          <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => navigate('/create')} data-testid="stories-new">
            {t('stories.newStory')}
          </Button>
        </Space>
      </div>
      {/* No story list yet (the stories feature is on its way): nothing to publish. */}
      <PowerDialog open={powerDialog.open} onClose={powerDialog.close} hasStory={false} />
      <div className="tl-panel">
        <Tabs
          activeKey={tab}
          onChange={(key) => setTab(key as StoriesTab)}
          items={[
            {
              key: 'mine',
              label: <span data-testid="stories-tab-mine">{t('stories.tabMine')}</span>,
              children: <Empty className="tl-empty" description={t('stories.emptyMine')} />,
            },
            {
              key: 'public',
              label: <span data-testid="stories-tab-public">{t('stories.tabPublic')}</span>,
              children: <Empty className="tl-empty" description={t('stories.emptyPublic')} />,
            },
          ]}
        />
      </div>
    </div>
  );
}
