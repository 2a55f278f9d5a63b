import { FireOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PlaceholderScreen } from '../../components/placeholder-screen';
import './screens.css';

// The 2024 Spring Festival activity page; its real content is configured outside the app.
export function ActivityRoute() {
  const { t } = useTranslation();
  return (
    <PlaceholderScreen
      testId="activity-screen"
      icon={<FireOutlined className="tl-placeholder__icon" aria-hidden="true" />}
      title={t('activity.title')}
      body={t('activity.body')}
      actionLabel={t('common.backToStories')}
    />
  );
}
