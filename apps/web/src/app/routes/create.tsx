import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ManuscriptUpload } from '../../features/files/components/manuscript-upload';
import { CreateStoryForm } from '../../features/stories/components/create-story-form';
import './screens.css';

export function CreateRoute() {
  const { t } = useTranslation();
  return (
    <div className="tl-page" data-testid="create-screen">
      <div className="tl-page__header">
        <div>
          <Typography.Title level={2} className="tl-page__title">
            {t('create.heading')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" className="tl-page__intro">
            {t('create.intro')}
          </Typography.Paragraph>
        </div>
      </div>
      <div className="tl-panel tl-panel--form">
        <CreateStoryForm renderUpload={(field) => <ManuscriptUpload {...field} />} />
      </div>
    </div>
  );
}
