import { CheckOutlined, EditOutlined, FastForwardOutlined, LeftOutlined, RedoOutlined, RightOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Spin, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState, type TouchEvent } from 'react';
import { createPortal } from 'react-dom';
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
  /** Shows take `index` of the turn (previous/next, a swipe). */
  onShowTake: (index: number) => void;
}

// A horizontal swipe this long (px), clearly more sideways than up or down, flips the take.
const SWIPE_PX = 48;

/** Previous/next between the takes of a turn ("2 / 3"), and a sideways swipe on the AI part on a phone. */
function useTakeSwipe(view: TurnView, onShowTake: (index: number) => void) {
  const start = useRef<{ x: number; y: number } | null>(null);
  const total = view.takes.length;
  const can = total > 1 && view.phase !== 'generating';
  return {
    onTouchStart: (e: TouchEvent) => {
      const t = e.touches[0];
      start.current = can && t ? { x: t.clientX, y: t.clientY } : null;
    },
    onTouchEnd: (e: TouchEvent) => {
      const from = start.current;
      const t = e.changedTouches[0];
      start.current = null;
      if (!from || !t) return;
      const dx = t.clientX - from.x;
      const dy = t.clientY - from.y;
      if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
      // Swiping left brings the next take in, as pages turn.
      const next = view.shown + (dx < 0 ? 1 : -1);
      if (next >= 0 && next < total) onShowTake(next);
    },
  };
}

/**
 * The floating popover of a turn: the user part and the AI part as they stream in, then undo,
 * regenerate, edit, save and continue. A failed turn keeps its partial text and says why.
 */
export function TurnCard({ view, actions, waiting = false, onEditingChange, dock }: {
  view: TurnView;
  actions: TurnActions;
  waiting?: boolean;
  onEditingChange?: (editing: boolean) => void;
  /** Where the actions go instead of the card's foot (the play screen: just above the input). */
  dock?: HTMLElement | null;
}) {
  const { t } = useTranslation();
  // Editing belongs to one turn: the next turn (a send from the input box included) starts unedited.
  const [editedTurn, setEditedTurn] = useState<string | null | undefined>(undefined);
  const shown = view.phase !== 'idle' && view.phase !== 'loading';
  const editing = shown && editedTurn !== undefined && editedTurn === view.turnId;
  // The screen locks its other controls while the pending turn is being edited.
  useEffect(() => {
    onEditingChange?.(editing);
  }, [editing, onEditingChange]);
  useEffect(() => () => onEditingChange?.(false), [onEditingChange]);
  const setEditing = (next: boolean | ((e: boolean) => boolean)) =>
    setEditedTurn((typeof next === 'function' ? next(editing) : next) ? view.turnId : undefined);
  const swipe = useTakeSwipe(view, actions.onShowTake);
  if (!shown) return null;
  // Waiting for the one-send-per-second rule counts as busy: the send is on its way.
  const generating = view.phase === 'generating' || waiting;
  const failed = view.phase === 'failed';
  const hasText = Boolean(view.userText || view.aiText);
  const total = view.takes.length;
  const flip = (index: number) => {
    setEditing(false);
    actions.onShowTake(index);
  };
  // The popover's actions: docked above the input (always in view), or at the card's foot.
  const buttons = (
      <div className="tl-play-turn__actions" role="group" aria-label={t('play.turnActions')} data-testid="turn-actions">
        <Tooltip title={t('play.undoHint')}>
          <Button icon={<UndoOutlined aria-hidden="true" />} disabled={generating} onClick={() => { setEditing(false); actions.onUndo(); }} data-testid="turn-undo">
            {t('play.undo')}
          </Button>
        </Tooltip>
        <Tooltip title={t('play.regenerateHint')}>
          <Button icon={<RedoOutlined aria-hidden="true" />} disabled={generating} onClick={() => { setEditing(false); actions.onRegenerate(); }} data-testid="turn-regenerate">
            {t('play.regenerate')}
          </Button>
        </Tooltip>
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
  );
  return (
    <section className="tl-play-turn" aria-live="polite" aria-label={t('play.turn')} data-testid="turn-card">
      {total > 1 ? (
        <div className="tl-play-turn__takes" role="group" aria-label={t('play.takes.label')} data-testid="turn-takes">
          <Button
            type="text"
            size="small"
            icon={<LeftOutlined aria-hidden="true" />}
            aria-label={t('play.takes.previous')}
            disabled={generating || view.shown === 0}
            onClick={() => flip(view.shown - 1)}
            data-testid="take-previous"
          />
          <span className="tl-play-turn__take-count" aria-live="polite" data-testid="take-count">
            {t('play.takes.count', { n: view.shown + 1, total })}
          </span>
          <Button
            type="text"
            size="small"
            icon={<RightOutlined aria-hidden="true" />}
            aria-label={t('play.takes.next')}
            disabled={generating || view.shown >= total - 1}
            onClick={() => flip(view.shown + 1)}
            data-testid="take-next"
          />
        </div>
      ) : null}
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
        <div className="tl-play-turn__ai tl-story-text" data-testid="turn-ai" {...swipe}>
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
      {dock ? createPortal(buttons, dock) : buttons}
    </section>
  );
}
