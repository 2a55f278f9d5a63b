import { ThunderboltOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyDialog } from '../../components/lazy-dialog';
import { useDailyPowerDialog } from '../../features/power/hooks/use-daily-power-dialog';
import { ActivityModal } from '../../features/site-config/components/activity-modal';
import { CommunityButton } from '../../features/site-config/components/community-button';
import { StoriesScreen } from '../../features/stories/components/stories-screen';
import './screens.css';

// The get-power dialog's code, and the publish picker's in it, load when it first opens: rendered closed
// with the screen, it cost /stories' first render on a phone about 170 ms (4x slower CPU).
const PowerDialog = lazyDialog(() => import('../../features/power/components/power-dialog').then((m) => m.PowerDialog));
const PublishPicker = lazy(() => import('../../features/stories/components/publish-picker').then((m) => ({ default: m.PublishPicker })));

/**
 * The stories screen with the get-power button and the daily power dialog (which opens by itself), and
 * what the operator configured (site-config): the community button and an activity notice.
 */
export function StoriesRoute() {
  const { t } = useTranslation();
  const powerDialog = useDailyPowerDialog();
  return (
    <>
      <ActivityModal />
      <StoriesScreen
        renderActions={() => (
          <>
            <Button icon={<ThunderboltOutlined aria-hidden="true" />} onClick={powerDialog.show} data-testid="stories-get-power">
              {t('stories.getPower')}
            </Button>
            <PowerDialog open={powerDialog.open} onClose={powerDialog.close} publishButton={
                <Suspense fallback={null}>
                  <PublishPicker />
                </Suspense>
              } />
            <CommunityButton />
          </>
        )}
      />
    </>
  );
}
