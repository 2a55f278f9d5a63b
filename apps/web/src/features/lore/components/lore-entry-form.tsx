import {
  LORE_CONTENT_MAX_LENGTH,
  LORE_DEFAULT_ORDER,
  LORE_KEY_MAX_LENGTH,
  LORE_KEYS_MAX,
  LORE_ORDER_MAX,
  LORE_ORDER_MIN,
  LORE_SCAN_DEPTH_MAX,
  LORE_TITLE_MAX_LENGTH,
  type LoreEntry,
} from '@taleloom/contracts';
import { Checkbox, Form, Input, InputNumber, Modal, Select, Space, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export interface LoreEntryValues {
  title: string;
  keys: string[];
  secondary_keys: string[];
  content: string;
  constant: boolean;
  enabled: boolean;
  order: number;
  case_sensitive: boolean;
  whole_words: boolean;
  scan_depth: number | null;
}

const BLANK: LoreEntryValues = {
  title: '', keys: [], secondary_keys: [], content: '', constant: false, enabled: true, order: LORE_DEFAULT_ORDER,
  case_sensitive: false, whole_words: true, scan_depth: null,
};

export interface LoreEntryFormProps {
  open: boolean;
  /** The entry edited (null: a new one). */
  entry: LoreEntry | null;
  saving: boolean;
  onCancel: () => void;
  onSave: (values: LoreEntryValues) => void;
}

// Keywords typed with commas (either language's) become separate keywords.
const TOKEN_SEPARATORS = [',', '，', '、', ';', '；'];

/** Adds or edits one lore entry; every limit is checked here before the server checks it again. */
export function LoreEntryForm({ open, entry, saving, onCancel, onSave }: LoreEntryFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoreEntryValues>();
  const constant = Form.useWatch('constant', form);
  useEffect(() => {
    if (open) form.setFieldsValue(entry ? { ...BLANK, ...entry } : BLANK);
  }, [open, entry, form]);

  const keyRules = [
    {
      validator: async (_: unknown, value?: string[]) => {
        if ((value?.length ?? 0) > LORE_KEYS_MAX) throw new Error(t('lore.form.tooManyKeys', { max: LORE_KEYS_MAX }));
        if (value?.some((k) => k.length > LORE_KEY_MAX_LENGTH)) throw new Error(t('lore.form.keyTooLong', { max: LORE_KEY_MAX_LENGTH }));
      },
    },
  ];
  return (
    <Modal
      open={open}
      title={entry ? t('lore.form.editTitle') : t('lore.form.addTitle')}
      okText={t('lore.form.save')}
      cancelText={t('common.cancel')}
      onCancel={onCancel}
      onOk={() => form.submit()}
      confirmLoading={saving}
      width={620}
      destroyOnHidden
      data-testid="lore-entry-form"
    >
      <Form<LoreEntryValues> form={form} layout="vertical" onFinish={(values) => onSave({ ...BLANK, ...values })} requiredMark="optional">
        <Form.Item name="title" label={t('lore.form.title')} rules={[{ required: true, whitespace: true, message: t('lore.form.titleRequired') }]}>
          <Input maxLength={LORE_TITLE_MAX_LENGTH} data-testid="lore-form-title" />
        </Form.Item>
        <Form.Item name="keys" label={t('lore.form.keys')} extra={t('lore.form.keysHint')} rules={keyRules}>
          <Select mode="tags" tokenSeparators={TOKEN_SEPARATORS} open={false} suffixIcon={null} aria-label={t('lore.form.keys')} data-testid="lore-form-keys" />
        </Form.Item>
        <Form.Item name="secondary_keys" label={t('lore.form.secondaryKeys')} extra={t('lore.form.secondaryKeysHint')} rules={keyRules}>
          <Select mode="tags" tokenSeparators={TOKEN_SEPARATORS} open={false} suffixIcon={null} aria-label={t('lore.form.secondaryKeys')} />
        </Form.Item>
        <Form.Item name="content" label={t('lore.form.content')} rules={[{ required: true, whitespace: true, message: t('lore.form.contentRequired') }]}>
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} maxLength={LORE_CONTENT_MAX_LENGTH} showCount data-testid="lore-form-content" />
        </Form.Item>
        <Space wrap size="large" className="tl-lore-form__switches">
          <Form.Item name="enabled" label={t('lore.form.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="constant" label={t('lore.form.constant')} valuePropName="checked" tooltip={t('lore.form.constantHint')}>
            <Switch data-testid="lore-form-constant" />
          </Form.Item>
          <Form.Item name="order" label={t('lore.form.order')} tooltip={t('lore.form.orderHint')}>
            <InputNumber min={LORE_ORDER_MIN} max={LORE_ORDER_MAX} precision={0} />
          </Form.Item>
          <Form.Item name="scan_depth" label={t('lore.form.scanDepth')} tooltip={t('lore.form.scanDepthHint')}>
            <InputNumber min={0} max={LORE_SCAN_DEPTH_MAX} precision={0} placeholder={t('lore.form.storyDefault')} disabled={constant} />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item name="case_sensitive" valuePropName="checked" noStyle>
            <Checkbox>{t('lore.form.caseSensitive')}</Checkbox>
          </Form.Item>
          <Form.Item name="whole_words" valuePropName="checked" noStyle>
            <Checkbox>{t('lore.form.wholeWords')}</Checkbox>
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
