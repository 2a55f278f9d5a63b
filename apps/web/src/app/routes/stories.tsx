import { ThunderboltOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDailyPowerDialog } from '../../features/power/hooks/use-daily-power-dialog';
import { ActivityModal } from '../../features/site-config/components/activity-modal';
import { CommunityButton } from '../../features/site-config/components/community-button';
import { StoriesScreen } from '../../features/stories/components/stories-screen';
import { GetPowerDialog } from '../get-power-dialog';
import './screens.css';

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
            <GetPowerDialog open={powerDialog.open} onClose={powerDialog.close} />
            <CommunityButton />
          </>
        )}
      />
    </>
  );
}
