import { ExportOutlined } from '@ant-design/icons';
import { CHARACTER_SHEET_MAX_LENGTH, PIC_SIZES, PLAY_MODES, SETTINGS_TEXT_MAX_LENGTH, type PictureGeneratorInfo, type StoryData, type UpdateStoryDto } from '@taleloom/contracts';
import { Drawer, Form, Input, Radio, Select, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Patch = Omit<UpdateStoryDto, 'language'>;
type TextField = 'settings_system_prompt_text' | 'settings_user_prompt_text' | 'settings_camera_style_prompt_text' | 'picture_character_sheet';

// A custom prompt area: auto-sizes from 6 to 15 rows and saves on blur.
function PromptText({ story, field, onSave, testId }: { story: StoryData; field: TextField; onSave: (p: Patch) => void; testId: string }) {
  const [draft, setDraft] = useState(story[field] ?? '');
  useEffect(() => setDraft(story[field] ?? ''), [story, field]);
  return (
    <Input.TextArea
      value={draft}
      autoSize={{ minRows: 6, maxRows: 15 }}
      maxLength={field === 'picture_character_sheet' ? CHARACTER_SHEET_MAX_LENGTH : SETTINGS_TEXT_MAX_LENGTH}
      data-testid={testId}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => {
        if (draft !== story[field]) onSave({ [field]: draft });
      }}
    />
  );
}

/**
 * The settings side panel (spec section 3 "Story settings"): toggles and selections save at once,
 * text areas on blur. Settings apply to the private and the public version.
 */
export function SettingsPanel({ open, onClose, story, onSave, disabled, pictures }: {
  open: boolean;
  onClose: () => void;
  story: StoryData;
  onSave: (patch: Patch) => void;
  disabled: boolean;
  /** What the server draws pictures with (unknown until loaded). */
  pictures?: PictureGeneratorInfo;
}) {
  const { t, i18n } = useTranslation();
  const cameraHint = [
    pictures && !pictures.available ? t('play.pictures.unavailable') : t('play.cameraHint'),
    pictures?.available && pictures.demo ? t('play.pictures.demoGenerator') : '',
    pictures?.available && pictures.points > 0 ? t('play.pictures.price', { points: pictures.points }) : '',
  ].filter(Boolean);
  const guide = `/creation-guide.html${i18n.language === 'zh-CN' ? '#zh' : '#en'}`;
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('play.settings')}
      placement="right"
      mask={false}
      size={360}
      // Below the sticky top bar, whose menus stay in reach while the panel is open.
      rootClassName="tl-play-settings-root"
      className="tl-play-settings"
      closable={{ 'aria-label': t('common.close') }}
    >
      <div data-testid="settings-panel">
      <Typography.Paragraph>
        <a href={guide} target="_blank" rel="noopener noreferrer" data-testid="creation-guide">
          {t('play.creationGuide')} <ExportOutlined aria-hidden="true" />
        </a>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('play.settingsHint')}</Typography.Paragraph>
      <Form layout="vertical" disabled={disabled}>
        <Form.Item label={t('play.playMode')} extra={story.activity ? t('tasks.locked') : undefined}>
          <Select
            value={story.play_mode}
            // A story of an activity keeps its play mode (spec section 6).
            disabled={Boolean(story.activity)}
            data-testid="setting-play-mode"
            onChange={(play_mode) => onSave({ play_mode })}
            options={PLAY_MODES.map((m) => ({ value: m, label: t(`play.playModes.${m}`) }))}
          />
        </Form.Item>
        <Form.Item label={t('play.systemPrompt')}>
          <div data-testid="setting-system-switch">
            <Radio.Group
              value={story.settings_system_prompt_switch}
              onChange={(e) => onSave({ settings_system_prompt_switch: e.target.value })}
              options={[{ value: 'default', label: t('play.default') }, { value: 'custom', label: t('play.custom') }]}
            />
          </div>
        </Form.Item>
        {story.settings_system_prompt_switch === 'custom' ? (
          <Form.Item label={t('play.systemPromptText')}>
            <PromptText story={story} field="settings_system_prompt_text" onSave={onSave} testId="setting-system-text" />
          </Form.Item>
        ) : null}
        <Form.Item label={t('play.userPrompt')}>
          <div data-testid="setting-user-switch">
            <Radio.Group
              value={story.settings_user_prompt_switch}
              onChange={(e) => onSave({ settings_user_prompt_switch: e.target.value })}
              options={[{ value: 'default', label: t('play.default') }, { value: 'custom', label: t('play.custom') }]}
            />
          </div>
        </Form.Item>
        {story.settings_user_prompt_switch === 'custom' ? (
          <Form.Item label={t('play.userPromptText')}>
            <PromptText story={story} field="settings_user_prompt_text" onSave={onSave} testId="setting-user-text" />
          </Form.Item>
        ) : null}
        <Form.Item label={t('play.cameraSwitch')} extra={<span data-testid="setting-camera-hint">{cameraHint.map((line) => <span key={line} className="tl-play-settings__hint">{line}</span>)}</span>}>
          <Switch checked={story.settings_camera_switch} onChange={(v) => onSave({ settings_camera_switch: v })} data-testid="setting-camera" />
        </Form.Item>
        <Form.Item label={t('play.cameraConsistency')} extra={t('play.cameraConsistencyHint')}>
          <Switch checked={story.settings_camera_consistency_switch} onChange={(v) => onSave({ settings_camera_consistency_switch: v })} data-testid="setting-consistency" />
        </Form.Item>
        {story.settings_camera_consistency_switch ? (
          <Form.Item label={t('play.characterSheet')} extra={t('play.characterSheetHint')}>
            <PromptText story={story} field="picture_character_sheet" onSave={onSave} testId="setting-character-sheet" />
          </Form.Item>
        ) : null}
        <Form.Item label={t('play.picSize')}>
          <Select value={story.settings_pic_size} onChange={(settings_pic_size) => onSave({ settings_pic_size })} options={PIC_SIZES.map((s) => ({ value: s, label: s.replace('*', ' × ') }))} data-testid="setting-pic-size" />
        </Form.Item>
        <Form.Item label={t('play.cameraStyle')}>
          <Radio.Group
            value={story.settings_camera_style_switch}
            onChange={(e) => onSave({ settings_camera_style_switch: e.target.value })}
            options={[{ value: 'default', label: t('play.default') }, { value: 'custom', label: t('play.custom') }]}
          />
        </Form.Item>
        {story.settings_camera_style_switch === 'custom' ? (
          <Form.Item label={t('play.cameraStyleText')}>
            <PromptText story={story} field="settings_camera_style_prompt_text" onSave={onSave} testId="setting-style-text" />
          </Form.Item>
        ) : null}
      </Form>
      </div>
    </Drawer>
  );
}
