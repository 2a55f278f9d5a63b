import { CloseCircleFilled, EyeOutlined, SendOutlined } from '@ant-design/icons';
import { AutoComplete, Button, Input, Tooltip } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

export interface PlayInputProps {
  role: string;
  roles: string[];
  onRoleChange: (role: string) => void;
  text: string;
  onTextChange: (text: string) => void;
  onSend: () => void;
  disabled: boolean;
  generating: boolean;
  /** A send waits for the one-send-per-second rule. */
  waiting?: boolean;
  /** Where the turn's actions dock (just above the box). */
  dockRef?: Ref<HTMLDivElement>;
}

/**
 * The line the player writes: a role (pick one or type a new one; empty is the narrator), helper
 * buttons for an action in brackets and for observing, and the text area. Shift+Enter or Meta+Enter
 * sends; Enter is a new line; sending an empty box continues the story.
 */
export function PlayInput(props: PlayInputProps) {
  const { t } = useTranslation();
  const area = useRef<TextAreaRef>(null);

  const insert = (before: string, after = '') => {
    const el = area.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? props.text.length;
    const end = el?.selectionEnd ?? props.text.length;
    const next = props.text.slice(0, start) + before + props.text.slice(start, end) + after + props.text.slice(end);
    props.onTextChange(next);
    requestAnimationFrame(() => {
      el?.focus();
      const caret = start + before.length + (end - start);
      el?.setSelectionRange(caret, caret);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.shiftKey || e.metaKey) && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (!props.disabled) props.onSend();
    }
  };

  const [open, close] = t('play.brackets').split('|');
  return (
    <div className="tl-play-input" data-testid="play-input">
      <div className="tl-play-input__dock" ref={props.dockRef} data-testid="turn-dock" />
      <div className="tl-play-input__tools">
        <AutoComplete
          className="tl-play-input__role"
          value={props.role}
          options={props.roles.map((r) => ({ value: r }))}
          onChange={(v: string) => props.onRoleChange(v.slice(0, 50))}
          placeholder={t('play.narrator')}
          aria-label={t('play.role')}
          data-testid="role-select"
          allowClear={{ clearIcon: <CloseCircleFilled aria-hidden="true" />, label: t('common.clear') }}
          disabled={props.disabled}
          filterOption={(input, option) => String(option?.value ?? '').toLowerCase().includes(input.toLowerCase())}
        />
        <Tooltip title={t('play.bracketHint')}>
          <Button onClick={() => insert(open, close)} disabled={props.disabled} data-testid="bracket-button" aria-label={t('play.bracket')}>
            {`${open}${close}`}
          </Button>
        </Tooltip>
        <Tooltip title={t('play.observeHint')}>
          <Button icon={<EyeOutlined aria-hidden="true" />} onClick={() => insert(t('play.observeText'))} disabled={props.disabled} data-testid="observe-button">
            <span className="tl-play-toolbar__label">{t('play.observe')}</span>
          </Button>
        </Tooltip>
      </div>
      <div className="tl-play-input__row">
        <Input.TextArea
          ref={area}
          value={props.text}
          onChange={(e) => props.onTextChange(e.target.value)}
          onKeyDown={onKeyDown}
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={10_000}
          // With no role the player writes as the narrator: the hint says so.
          placeholder={t(props.role.trim() ? 'play.inputHint' : 'play.inputHintNarrator')}
          aria-label={t('play.input')}
          disabled={props.disabled}
          data-testid="play-textarea"
        />
        <Button
          type="primary"
          icon={<SendOutlined aria-hidden="true" />}
          onClick={props.onSend}
          disabled={props.disabled}
          loading={props.generating}
          data-testid="send-button"
        >
          {props.waiting ? t('play.sendWaiting') : props.text.trim() ? t('play.send') : t('play.continue')}
        </Button>
      </div>
    </div>
  );
}
