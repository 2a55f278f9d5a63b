import { Button, Input, Space } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

// A novel-length text is shown from its end; earlier parts load on request (fast to open).
const TAIL_CHARS = 30_000;
const MORE_CHARS = 100_000;

/** The main text, or in edit mode a text area with confirm and back. */
export function StoryText(props: {
  text: string;
  editing: boolean;
  saving: boolean;
  onConfirm: (text: string) => void;
  onBack: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(TAIL_CHARS);
  const [draft, setDraft] = useState(props.text);
  const end = useRef<HTMLDivElement>(null);
  const hidden = Math.max(0, props.text.length - shown);

  useEffect(() => {
    if (props.editing) setDraft(props.text);
    // Only when edit mode starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.editing]);

  // Keep the newest text in view as the story grows.
  useLayoutEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [props.text.length]);

  if (props.editing) {
    return (
      <div className="tl-play-text tl-play-text--editing">
        <Input.TextArea
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          autoSize={{ minRows: 10, maxRows: 30 }}
          aria-label={t('play.editText')}
          data-testid="edit-textarea"
        />
        <Space className="tl-play-text__edit-actions">
          <Button onClick={props.onBack} data-testid="edit-back">
            {t('play.back')}
          </Button>
          <Button type="primary" loading={props.saving} onClick={() => props.onConfirm(draft)} data-testid="edit-confirm">
            {t('play.confirm')}
          </Button>
        </Space>
      </div>
    );
  }
  return (
    <div className="tl-play-text">
      {hidden > 0 ? (
        <Button type="link" onClick={() => setShown((n) => n + MORE_CHARS)} data-testid="show-earlier">
          {t('play.showEarlier', { count: hidden })}
        </Button>
      ) : null}
      <div className="tl-story-text" data-testid="play-text">
        {hidden > 0 ? props.text.slice(hidden) : props.text}
      </div>
      {props.children}
      <div ref={end} />
    </div>
  );
}
