import { CloseCircleFilled } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';

/**
 * Shown when a screen throws or its lazy chunk fails to load (e.g. after a new deployment). Plain
 * markup in the first chunk: it must show when no other chunk can be loaded, and every first screen
 * carries it.
 */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <div className="tl-placeholder" data-testid="route-error">
      <div className="tl-route-error" role="alert">
        <CloseCircleFilled className="tl-route-error__icon" aria-hidden="true" />
        <h1 className="tl-route-error__title">{t('errors.UNKNOWN')}</h1>
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      </div>
    </div>
  );
}
