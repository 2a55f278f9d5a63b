import { CheckOutlined, LoadingOutlined } from '@ant-design/icons';
import { Collapse, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

interface NoteProps {
  value: string;
  placeholder: string;
  disabled: boolean;
  testId: string;
  onSave: (value: string) => Promise<unknown>;
}

// A text area that follows the stored value until the user edits it, and saves on blur; a line under
// it says "Saving…" and then "Saved" (a failed save is told by the screen's error message).
function NoteArea({ value, placeholder, disabled, testId, onSave }: NoteProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle');
  useEffect(() => {
    if (!editing) setDraft(value);
  }, [value, editing]);
  return (
    <>
      <Input.TextArea
        value={draft}
        placeholder={placeholder}
        disabled={disabled}
        autoSize={{ minRows: 2, maxRows: 8 }}
        data-testid={testId}
        onFocus={() => setEditing(true)}
        onChange={(e) => {
          setDraft(e.target.value);
          setStatus('idle');
        }}
        onBlur={() => {
          setEditing(false);
          if (draft === value) return;
          setStatus('saving');
          onSave(draft).then(
            () => setStatus((s) => (s === 'saving' ? 'saved' : s)),
            () => setStatus('idle'),
          );
        }}
      />
      <div className="tl-play-notes__status" role="status" data-testid={`${testId}-status`}>
        {status === 'saving' ? (
          <Typography.Text type="secondary">
            <LoadingOutlined aria-hidden="true" /> {t('play.noteSaving')}
          </Typography.Text>
        ) : status === 'saved' ? (
          <Typography.Text type="success">
            <CheckOutlined aria-hidden="true" /> {t('play.noteSaved')}
          </Typography.Text>
        ) : null}
      </div>
    </>
  );
}

/** The author's note and the previous summary (kept by the model, editable), above the text. */
export function StoryNotes(props: {
  authorRemark: string;
  previousSummary: string;
  summaryFlash: boolean;
  disabled: boolean;
  onSave: (field: 'author_remark' | 'previous_summary', value: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <Collapse
      className="tl-play-notes"
      size="small"
      ghost
      items={[
        {
          key: 'note',
          label: (
            <span>
              {t('play.authorNote')}
              {props.authorRemark ? <Typography.Text type="secondary"> · {t('play.set')}</Typography.Text> : null}
            </span>
          ),
          children: (
            <NoteArea value={props.authorRemark} placeholder={t('play.authorNoteHint')} disabled={props.disabled} testId="author-note" onSave={(v) => props.onSave('author_remark', v)} />
          ),
        },
        {
          key: 'summary',
          label: (
            <span className={props.summaryFlash ? 'tl-play-notes__flash' : undefined} data-testid="summary-label">
              {t('play.previousSummary')}
              {props.summaryFlash ? <Typography.Text type="success"> · {t('play.summaryUpdated')}</Typography.Text> : null}
            </span>
          ),
          children: (
            <>
              <Typography.Paragraph type="secondary" className="tl-play-notes__hint">
                {t('play.previousSummaryHint')}
              </Typography.Paragraph>
              <NoteArea value={props.previousSummary} placeholder={t('play.previousSummaryEmpty')} disabled={props.disabled} testId="previous-summary" onSave={(v) => props.onSave('previous_summary', v)} />
            </>
          ),
        },
      ]}
    />
  );
}
