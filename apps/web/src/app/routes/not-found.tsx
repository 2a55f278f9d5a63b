import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import './screens.css';

export function NotFoundRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="tl-placeholder" data-testid="not-found">
      <Result
        status="404"
        title={t('nav.notFound')}
        subTitle={t('notFound.subTitle')}
        extra={
          <Button type="primary" onClick={() => navigate('/stories')} data-testid="not-found-home">
            {t('common.backToStories')}
          </Button>
        }
      />
    </div>
  );
}
