import { UploadOutlined } from '@ant-design/icons';
import {
  DEFAULT_PLAY_MODE,
  PLAY_MODES,
  PROLOGUE_MAX_LENGTH,
  STORY_NAME_MAX_LENGTH,
  STORY_NAME_MIN_LENGTH,
  STORY_ROLE_MAX_LENGTH,
  type LoreBookInput,
  type PlayMode,
} from '@taleloom/contracts';
import { Button, Collapse, Form, Input, Select, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isApiClientError } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/error-message';
import { useCreateStory } from '../api/create-story';
import './stories.css';
import { useFeedback } from '../../../components/feedback';

interface CreateStoryValues {
  name?: string;
  prologue_and_characters: string;
  role?: string;
  play_mode: PlayMode;
}

const FIELDS = ['name', 'prologue_and_characters', 'role', 'play_mode'] as const;

/** Access to the prologue field for a file import placed in the form by the route. */
export interface PrologueField {
  getText: () => string;
  setText: (text: string) => void;
  /** The lore an imported file carries: it replaces what an earlier import brought, or is added to it. */
  setLore: (lore: LoreBookInput | null, mode: 'replace' | 'append') => void;
  /** A name the file carries (a character card's): it names the story while the name field is empty. */
  setName: (name: string) => void;
}

/**
 * The create screen's form (spec section 2 "Create screen", rules of section 5). The file import comes
 * from another feature, so the route passes it in through `renderUpload`.
 */
export function CreateStoryForm({ renderUpload }: { renderUpload?: (field: PrologueField) => ReactNode } = {}) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const [form] = Form.useForm<CreateStoryValues>();
  const create = useCreateStory();
  const playMode = Form.useWatch('play_mode', form);
  // Lore from imported files (a character card's book, a txt/md file's lore blocks), created with the story.
  const [lore, setLore] = useState<LoreBookInput | null>(null);

  const submit = (values: CreateStoryValues) => {
    create.mutate(
      {
        name: values.name?.trim() ?? '',
        prologue_and_characters: values.prologue_and_characters,
        role: values.role?.trim() || undefined,
        play_mode: values.play_mode,
        ...(lore?.entries.length ? { lore } : {}),
      },
      {
        onSuccess: ({ id }) => navigate(`/play?id=${encodeURIComponent(id)}`),
        onError: (error) => {
          // Field problems from the server land on their fields; anything else is a message.
          const details = isApiClientError(error) ? (error.details ?? []) : [];
          const known = details.filter((d) => (FIELDS as readonly string[]).includes(d.field));
          if (known.length) form.setFields(known.map((d) => ({ name: d.field as (typeof FIELDS)[number], errors: [t('create.invalid')] })));
          void message.error(getErrorMessage(error, t));
        },
      },
    );
  };

  return (
    <Form<CreateStoryValues>
      form={form}
      layout="vertical"
      className="tl-create-form"
      initialValues={{ play_mode: DEFAULT_PLAY_MODE }}
      onFinish={submit}
      data-testid="create-form"
      requiredMark="optional"
    >
      <Form.Item
        name="name"
        label={t('create.name')}
        rules={[
          {
            validator: async (_, value?: string) => {
              const length = value?.trim().length ?? 0;
              if (length && (length < STORY_NAME_MIN_LENGTH || length > STORY_NAME_MAX_LENGTH)) {
                throw new Error(t('create.nameLength', { min: STORY_NAME_MIN_LENGTH, max: STORY_NAME_MAX_LENGTH }));
              }
            },
          },
        ]}
        extra={t('create.nameHint', { min: STORY_NAME_MIN_LENGTH, max: STORY_NAME_MAX_LENGTH })}
      >
        <Input placeholder={t('create.namePlaceholder')} maxLength={STORY_NAME_MAX_LENGTH} data-testid="create-name" />
      </Form.Item>
      <Form.Item
        name="prologue_and_characters"
        label={t('create.prologue')}
        rules={[{ required: true, whitespace: true, message: t('create.prologueRequired') }]}
      >
        <Input.TextArea
          autoSize={{ minRows: 10, maxRows: 20 }}
          maxLength={PROLOGUE_MAX_LENGTH}
          placeholder={t('create.prologuePlaceholder')}
          data-testid="create-prologue"
        />
      </Form.Item>
      <Form.Item label={t('create.upload')} extra={t('create.uploadHint')}>
        {renderUpload ? (
          renderUpload({
            getText: () => form.getFieldValue('prologue_and_characters') ?? '',
            setText: (text) => {
              form.setFieldValue('prologue_and_characters', text);
              void form.validateFields(['prologue_and_characters']).catch(() => undefined);
            },
            setName: (name) => {
              if (!String(form.getFieldValue('name') ?? '').trim()) form.setFieldValue('name', name.slice(0, STORY_NAME_MAX_LENGTH));
            },
            setLore: (next, mode) =>
              setLore((current) =>
                mode === 'append' && current && next ? { settings: { ...current.settings, ...next.settings }, entries: [...current.entries, ...next.entries] } : mode === 'append' ? (next ?? current) : next,
              ),
          })
        ) : (
          <Tooltip title={t('common.comingSoon')}>
            <Button icon={<UploadOutlined aria-hidden="true" />} disabled data-testid="create-upload">
              {t('create.uploadButton')}
            </Button>
          </Tooltip>
        )}
      </Form.Item>
      {lore?.entries.length ? (
        <Typography.Paragraph type="secondary" data-testid="create-lore">
          {t('create.loreFromFile', { count: lore.entries.length })}
        </Typography.Paragraph>
      ) : null}
      <Form.Item
        name="role"
        label={t('create.role')}
        rules={[{ max: STORY_ROLE_MAX_LENGTH, message: t('create.roleLength', { max: STORY_ROLE_MAX_LENGTH }) }]}
      >
        <Input placeholder={t('create.rolePlaceholder')} data-testid="create-role" />
      </Form.Item>
      <Collapse
        ghost
        items={[
          {
            key: 'advanced',
            label: t('create.advanced'),
            forceRender: true,
            children: (
              <Form.Item name="play_mode" label={t('create.playMode')} extra={t(`create.playModeHint.${playMode ?? DEFAULT_PLAY_MODE}`)}>
                <Select
                  data-testid="create-play-mode"
                  options={PLAY_MODES.map((mode) => ({ value: mode, label: t(`create.playModes.${mode}`) }))}
                />
              </Form.Item>
            ),
          },
        ]}
      />
      <Typography.Paragraph />
      <Button type="primary" htmlType="submit" size="large" loading={create.isPending} data-testid="create-submit">
        {t('create.submit')}
      </Button>
    </Form>
  );
}
