import type { CustomModelTestData } from '@taleloom/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiClientError } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/error-message';

/** What "test connection" found: connected (and whether the model is listed), or what went wrong. */
export function TestResult({ pending, data, error }: { pending: boolean; data?: CustomModelTestData; error: unknown }) {
  const { t } = useTranslation();
  if (pending) return null;
  if (data) {
    const listed = data.modelListed === true ? t('customModels.testListed') : data.modelListed === false ? t('customModels.testNotListed') : '';
    return (
      <Alert
        type={data.modelListed === false ? 'warning' : 'success'}
        showIcon
        className="tl-custom-models__result"
        data-testid="custom-model-test-ok"
        title={t('customModels.testOk', { ms: data.latencyMs })}
        description={[listed, data.modelListed === false && data.models.length ? t('customModels.providerModels', { models: data.models.join(t('common.listSeparator')) }) : '']
          .filter(Boolean)
          .join(' ')}
      />
    );
  }
  if (!error) return null;
  // The server adds what the provider said (status, message) and, for an unknown model, the names it offers.
  const params = isApiClientError(error) ? (error.params ?? {}) : {};
  const extra = [params.status, params.detail, params.models ? t('customModels.providerModels', { models: params.models }) : '']
    .filter((p) => p !== undefined && p !== '')
    .join(' ');
  return (
    <Alert
      type="error"
      showIcon
      className="tl-custom-models__result"
      data-testid="custom-model-test-error"
      title={t('customModels.testFailedWith', { reason: getErrorMessage(error, t) })}
      description={extra || undefined}
    />
  );
}
