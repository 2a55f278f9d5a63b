import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';

/** Shown when a screen throws or its lazy chunk fails to load (e.g. after a new deployment). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <div className="tl-placeholder" data-testid="route-error">
      <Result
        status="error"
        title={t('errors.UNKNOWN')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('common.reload')}
          </Button>
        }
      />
    </div>
  );
}
