import { ApiOutlined } from '@ant-design/icons';
import {
  baseUrlProblem,
  CUSTOM_MODEL_KEY_MAX_LENGTH,
  CUSTOM_MODEL_NAME_MAX_LENGTH,
  CUSTOM_MODEL_TYPES,
  CUSTOM_MODEL_URL_MAX_LENGTH,
  customModelNameKey,
  type CustomModelType,
  type CustomModelView,
} from '@taleloom/contracts';
import { Alert, Button, Form, Input, Select, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useCreateCustomModel } from '../api/create-custom-model';
import { useTestCustomModel } from '../api/test-custom-model';
import { useUpdateCustomModel } from '../api/update-custom-model';
import { PROVIDER_PRESETS, presetOf } from '../lib/provider-presets';
import { TestResult } from './test-result';
import { useFeedback } from '../../../components/feedback';

export interface CustomModelFormValues {
  model_name: string;
  base_url: string;
  api_key: string;
  model_type: CustomModelType;
  enable_reasoning: boolean;
}

export interface CustomModelFormProps {
  /** The model being edited; none when adding. */
  editing: CustomModelView | null;
  /** Every saved model, for the name check. */
  existing: CustomModelView[];
  onSaved: (saved: CustomModelView, previousName: string | null) => void;
  onBack: () => void;
}

/** Add or edit one custom model: provider shortcuts, the four required fields, reasoning, test and save. */
export function CustomModelForm({ editing, existing, onSaved, onBack }: CustomModelFormProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<CustomModelFormValues>();
  const create = useCreateCustomModel();
  const update = useUpdateCustomModel();
  const test = useTestCustomModel();
  const baseUrl = Form.useWatch('base_url', form) ?? editing?.base_url ?? '';
  const preset = presetOf(baseUrl);
  const saving = create.isPending || update.isPending;
  // The form's own "fill in all" message, shown until the next change (spec section 5).
  const [incomplete, setIncomplete] = useState(false);

  const initial: CustomModelFormValues = editing
    ? { model_name: editing.model_name, base_url: editing.base_url, api_key: '', model_type: editing.model_type, enable_reasoning: editing.enable_reasoning }
    : { model_name: '', base_url: '', api_key: '', model_type: 'compatible_openai', enable_reasoning: false };

  const choosePreset = (id: string) => {
    const chosen = PROVIDER_PRESETS.find((p) => p.id === id);
    if (!chosen) return;
    form.setFieldsValue({ base_url: chosen.baseUrl });
    void form.validateFields(['base_url']).catch(() => undefined);
    test.reset();
  };

  // Every field is checked first; an incomplete form says so (spec section 5).
  const valid = async (): Promise<CustomModelFormValues | null> => {
    try {
      return await form.validateFields();
    } catch {
      setIncomplete(true);
      return null;
    }
  };

  const onTest = async () => {
    const values = await valid();
    if (!values) return;
    const { model_name, base_url, model_type, api_key } = values;
    test.mutate({ model_name, base_url, model_type, api_key: api_key || undefined, saved_name: editing?.model_name });
  };

  const onSave = async () => {
    const values = await valid();
    if (!values) return;
    const onError = (error: unknown) => void message.error(t('customModels.saveFailed', { reason: getErrorMessage(error, t) }));
    const done = (saved: CustomModelView) => {
      void message.success(t('customModels.saved', { name: saved.model_name }));
      onSaved(saved, editing?.model_name ?? null);
    };
    if (editing) {
      const { api_key, ...rest } = values;
      update.mutate({ name: editing.model_name, body: { ...rest, ...(api_key ? { api_key } : {}) } }, { onSuccess: done, onError });
    } else {
      create.mutate(values, { onSuccess: done, onError });
    }
  };

  const takenBy = (name: string) =>
    existing.some((m) => m.model_name !== editing?.model_name && customModelNameKey(m.model_name) === customModelNameKey(name));

  return (
    <Form form={form} layout="vertical" initialValues={initial} requiredMark onValuesChange={() => {
        test.reset();
        setIncomplete(false);
      }} data-testid="custom-model-form" className="tl-custom-models__form">
      <Form.Item label={t('customModels.preset')} extra={preset?.local ? t('customModels.presetLocal') : undefined}>
        <Select
          showSearch
          virtual={false}
          optionFilterProp="label"
          placeholder={t('customModels.presetPlaceholder')}
          value={preset?.id}
          onChange={choosePreset}
          options={PROVIDER_PRESETS.map((p) => ({ value: p.id, label: t(`customModels.presets.${p.id}` as 'customModels.presets.openai') }))}
          data-testid="custom-model-preset"
        />
      </Form.Item>
      <Form.Item
        name="model_name"
        label={t('customModels.modelName')}
        extra={t('customModels.modelNameHint')}
        rules={[
          { required: true, whitespace: true, message: t('customModels.modelNameRequired') },
          { validator: async (_, v: string) => (v && takenBy(v) ? Promise.reject(new Error(t('customModels.nameTaken'))) : undefined) },
        ]}
      >
        <Input
          maxLength={CUSTOM_MODEL_NAME_MAX_LENGTH}
          placeholder={t('customModels.modelNamePlaceholder', { example: preset?.exampleModel ?? 'gpt-4o-mini' })}
          autoComplete="off"
          data-testid="custom-model-name"
        />
      </Form.Item>
      <Form.Item
        name="base_url"
        label={t('customModels.baseUrl')}
        extra={t('customModels.baseUrlHint')}
        rules={[
          { required: true, whitespace: true, message: t('customModels.baseUrlRequired') },
          {
            validator: async (_, v: string) => {
              const problem = v?.trim() ? baseUrlProblem(v) : null;
              if (problem === 'format') throw new Error(t('customModels.baseUrlFormat'));
              if (problem === 'endpoint') throw new Error(t('customModels.baseUrlEndpoint'));
            },
          },
        ]}
      >
        <Input maxLength={CUSTOM_MODEL_URL_MAX_LENGTH} placeholder="https://api.openai.com/v1" inputMode="url" autoComplete="off" data-testid="custom-model-url" />
      </Form.Item>
      <Form.Item
        name="api_key"
        label={t('customModels.apiKey')}
        rules={editing ? [] : [{ required: true, whitespace: true, message: t('customModels.apiKeyRequired') }]}
        required={!editing}
      >
        <Input.Password
          maxLength={CUSTOM_MODEL_KEY_MAX_LENGTH}
          placeholder={editing ? t('customModels.apiKeyKeep', { masked: editing.api_key_masked }) : 'sk-…'}
          autoComplete="new-password"
          data-testid="custom-model-key"
        />
      </Form.Item>
      <Form.Item name="model_type" label={t('customModels.modelType')} rules={[{ required: true, message: t('customModels.modelTypeRequired') }]}>
        <Select options={CUSTOM_MODEL_TYPES.map((type) => ({ value: type, label: t(`customModels.types.${type}`) }))} data-testid="custom-model-type" />
      </Form.Item>
      <Form.Item name="enable_reasoning" label={t('customModels.reasoning')} extra={t('customModels.reasoningHint')} valuePropName="checked">
        <Switch data-testid="custom-model-reasoning" />
      </Form.Item>
      {incomplete ? <Alert type="error" showIcon className="tl-custom-models__result" title={t('customModels.fillAll')} data-testid="custom-model-incomplete" /> : null}
      <TestResult pending={test.isPending} data={test.data} error={test.error} />
      <div className="tl-custom-models__actions">
        <Button onClick={onBack} disabled={saving} data-testid="custom-model-back">
          {t('customModels.back')}
        </Button>
        <span className="tl-custom-models__spacer" />
        <Button icon={<ApiOutlined aria-hidden="true" />} onClick={() => void onTest()} loading={test.isPending} data-testid="custom-model-test">
          {t('customModels.test')}
        </Button>
        <Button type="primary" onClick={() => void onSave()} loading={saving} data-testid="custom-model-save">
          {t('customModels.save')}
        </Button>
      </div>
      <Typography.Paragraph type="secondary" className="tl-custom-models__note">
        {t('customModels.keySafety')}
      </Typography.Paragraph>
    </Form>
  );
}
