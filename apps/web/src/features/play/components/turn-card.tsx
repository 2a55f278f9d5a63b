import { CheckOutlined, EditOutlined, FastForwardOutlined, RedoOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Spin, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { ApiClientError } from '../../../lib/api-client';
import type { TurnView } from '../hooks/use-turn';

export interface TurnActions {
  onUndo: () => void;
  onRegenerate: () => void;
  onSave: () => void;
  onContinue: () => void;
  onEditAi: (text: string) => void;
}

/**
 * The floating popover of a turn: the user part and the AI part as they stream in, then undo,
 * regenerate, edit, save and continue. A failed turn keeps its partial text and says why.
 */
export function TurnCard({ view, actions, waiting = false }: { view: TurnView; actions: TurnActions; waiting?: boolean }) {
  const { t } = useTranslation();
  // Editing belongs to one turn: the next turn (a send from the input box included) starts unedited.
  const [editedTurn, setEditedTurn] = useState<string | null | undefined>(undefined);
  const editing = editedTurn !== undefined && editedTurn === view.turnId;
  const setEditing = (next: boolean | ((e: boolean) => boolean)) =>
    setEditedTurn((typeof next === 'function' ? next(editing) : next) ? view.turnId : undefined);
  if (view.phase === 'idle' || view.phase === 'loading') return null;
  // Waiting for the one-send-per-second rule counts as busy: the send is on its way.
  const generating = view.phase === 'generating' || waiting;
  const failed = view.phase === 'failed';
  const hasText = Boolean(view.userText || view.aiText);
  return (
    <section className="tl-play-turn" aria-live="polite" aria-label={t('play.turn')} data-testid="turn-card">
      {view.userText ? (
        <Typography.Paragraph className="tl-play-turn__user" data-testid="turn-user">
          {view.userText}
        </Typography.Paragraph>
      ) : null}
      {view.reasoning ? (
        <details className="tl-play-turn__reasoning">
          <summary>{t('play.reasoning')}</summary>
          <Typography.Paragraph type="secondary">{view.reasoning}</Typography.Paragraph>
        </details>
      ) : null}
      {editing ? (
        <Input.TextArea
          value={view.aiText}
          autoSize={{ minRows: 3, maxRows: 14 }}
          onChange={(e) => actions.onEditAi(e.target.value)}
          aria-label={t('play.edit')}
          data-testid="turn-ai-edit"
        />
      ) : (
        <div className="tl-play-turn__ai tl-story-text" data-testid="turn-ai">
          {view.aiText}
          {view.phase === 'generating' ? <Spin size="small" className="tl-play-turn__spin" aria-label={t('play.generating')} /> : null}
        </div>
      )}
      {failed && view.errorCode ? (
        <Alert
          type="warning"
          showIcon
          className="tl-play-turn__error"
          data-testid="turn-error"
          title={getErrorMessage(new ApiClientError(502, view.errorCode, ''), t)}
        />
      ) : null}
      {waiting ? (
        <div className="tl-play-turn__queued" role="status" data-testid="send-queued">
          <Spin size="small" /> {t('play.sendQueued')}
        </div>
      ) : null}
      <div className="tl-play-turn__actions">
        <Tooltip title={t('play.undoHint')}>
          <Button icon={<UndoOutlined aria-hidden="true" />} disabled={generating} onClick={() => { setEditing(false); actions.onUndo(); }} data-testid="turn-undo">
            {t('play.undo')}
          </Button>
        </Tooltip>
        <Button icon={<RedoOutlined aria-hidden="true" />} disabled={generating} onClick={() => { setEditing(false); actions.onRegenerate(); }} data-testid="turn-regenerate">
          {t('play.regenerate')}
        </Button>
        <Button
          icon={<EditOutlined aria-hidden="true" />}
          disabled={generating}
          type={editing ? 'primary' : 'default'}
          aria-pressed={editing}
          onClick={() => setEditing((e) => !e)}
          data-testid="turn-edit"
        >
          {t('play.edit')}
        </Button>
        <Button icon={<CheckOutlined aria-hidden="true" />} disabled={generating || !hasText} onClick={() => { setEditing(false); actions.onSave(); }} data-testid="turn-save">
          {t('play.save')}
        </Button>
        <Button type="primary" icon={<FastForwardOutlined aria-hidden="true" />} disabled={generating} onClick={() => { setEditing(false); actions.onContinue(); }} data-testid="turn-continue">
          {t('play.continue')}
        </Button>
      </div>
    </section>
  );
}
