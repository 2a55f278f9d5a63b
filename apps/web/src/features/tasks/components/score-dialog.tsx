import { CheckCircleFilled, CheckOutlined, CloseCircleOutlined, ExclamationCircleOutlined } from '@ant-design/icons';
import { ErrorCode, SCORE_DIALOG_CLOSE_MS, type TaskGroup } from '@taleloom/contracts';
import { Alert, Button, Modal, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiClientError } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/error-message';
import { isNotEnoughPower, requestGetPower } from '../../../lib/get-power';
import type { ScoreView } from '../hooks/use-task-score';
import { EvidenceQuote } from './evidence-quote';
import { useFeedback } from '../../../components/feedback';

export interface ScoreDialogProps {
  /** The group being scored (the dialog is open while set). */
  group: TaskGroup | null;
  /** The scoring request, started by the button that opened the dialog (not by an effect: one click, one request). */
  view: ScoreView;
  onClose: () => void;
}

/**
 * The score-calculation dialog (spec section 4): the judge's verdicts stream in, each completed
 * target with the passage that shows it; success shows a tick and the dialog closes 3 seconds later.
 * A plot already scored is a warning, and a group with nothing left to score information, not errors.
 */
export function ScoreDialog({ group, view, onClose }: ScoreDialogProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const open = group !== null;

  // Already scored: a warning; every target done (the list was stale): information. Neither has
  // anything to show. Not enough power: offer ways to get some.
  useEffect(() => {
    if (!open || view.phase !== 'error') return;
    const code = isApiClientError(view.error) ? view.error.code : null;
    if (code === ErrorCode.TASK_ALREADY_SCORED) {
      void message.warning(t('errors.TASK_ALREADY_SCORED'));
      closeRef.current();
    } else if (code === ErrorCode.TASK_NOTHING_TO_SCORE) {
      void message.info(t('errors.TASK_NOTHING_TO_SCORE'));
      closeRef.current();
    } else if (isNotEnoughPower(view.error)) {
      requestGetPower();
    }
  }, [open, view.phase, view.error, message, t]);

  useEffect(() => {
    if (!open || view.phase !== 'success') return;
    const timer = setTimeout(() => closeRef.current(), SCORE_DIALOG_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [open, view.phase]);

  const titles = group?.targets ?? [];
  const scored = view.group;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('tasks.scoreDialog.title', { name: group?.series_name ?? '' })}
      footer={
        <Button onClick={onClose} data-testid="score-close">
          {t('common.close')}
        </Button>
      }
      width={560}
      destroyOnHidden
      className="tl-tasks-score"
    >
      <div data-testid="score-dialog" aria-live="polite">
        {view.phase === 'running' ? (
          <div className="tl-tasks-init__progress" role="status">
            <Spin size="small" /> {view.retrying ? t('tasks.scoreDialog.retrying') : t('tasks.scoreDialog.reading')}
          </div>
        ) : null}
        {view.phase === 'success' ? (
          <div className="tl-tasks-score__result" data-testid="score-success">
            <CheckCircleFilled className="tl-tasks-score__tick" aria-hidden="true" />
            <div>
              <div className="tl-tasks-score__headline">{t('tasks.scoreDialog.success')}</div>
              <div className="tl-tasks-score__detail">
                {t('tasks.scoreDialog.successDetail', { score: scored?.score ?? 0, total: view.totalScore ?? 0 })}
              </div>
            </div>
          </div>
        ) : null}
        {view.phase === 'error' ? <Alert type="error" showIcon title={getErrorMessage(view.error, t)} data-testid="score-error" /> : null}
        <ul className="tl-tasks-verdicts">
          {view.verdicts.map((v) => (
            <li key={v.target_id} className="tl-tasks-verdict" data-testid="score-verdict">
              <div className="tl-tasks-target__line">
                {v.completed ? (
                  <CheckOutlined className="tl-tasks-target__icon tl-tasks-target__icon--done" aria-label={t('tasks.scoreDialog.completed')} data-testid="verdict-done" />
                ) : v.unproven ? (
                  <ExclamationCircleOutlined className="tl-tasks-target__icon tl-tasks-target__icon--warn" aria-label={t('tasks.scoreDialog.unproven')} />
                ) : (
                  <CloseCircleOutlined className="tl-tasks-target__icon" aria-label={t('tasks.scoreDialog.notYet')} />
                )}
                <span className="tl-tasks-target__title">{titles.find((x) => x.id === v.target_id)?.title ?? ''}</span>
              </div>
              {v.completed && v.evidence ? <EvidenceQuote text={v.evidence} /> : null}
              {v.unproven ? <div className="tl-tasks-target__reason">{t('tasks.scoreDialog.unproven')}</div> : null}
              {v.reason ? <div className="tl-tasks-target__reason">{v.reason}</div> : null}
            </li>
          ))}
        </ul>
        {view.phase === 'success' ? <p className="tl-tasks__hint">{t('tasks.scoreDialog.closing')}</p> : null}
      </div>
    </Modal>
  );
}
