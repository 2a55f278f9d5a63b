import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PlaceholderScreen } from '../../components/placeholder-screen';
import './screens.css';

export function CreateRoute() {
  const { t } = useTranslation();
  return (
    <PlaceholderScreen
      testId="create-screen"
      icon={<EditOutlined className="tl-placeholder__icon" aria-hidden="true" />}
      title={t('create.title')}
      body={t('create.body')}
      actionLabel={t('common.backToStories')}
    />
  );
}
