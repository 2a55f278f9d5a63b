import { PLAY_MODES, type PlayMode, type TaskInfo } from '@taleloom/contracts';
import { Alert, Button, Empty, Modal, Select, Skeleton, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { isNotEnoughPower, requestGetPower } from '../../../lib/get-power';
import { useTasks } from '../api/get-tasks';
import { TaskGroupView } from './task-group-view';
import { TaskSuggestionsView } from './task-suggestions-view';
import '../tasks.css';
import { useFeedback } from '../../../components/feedback';

export interface TaskDashboardProps {
  open: boolean;
  onClose: () => void;
  storyId: string;
  playMode: PlayMode;
  locked: boolean;
  onPlayModeChange: (mode: PlayMode) => Promise<unknown>;
}

/**
 * The task dashboard (spec sections 2 and 4): the totals, the play mode (saved at once), and two
 * views: init (streamed suggestions: accept, switch set, back) and task (the groups with pagination,
 * edit mode, update score, delete). A story of an activity shows its tasks read-only.
 */
export function TaskDashboard({ open, onClose, storyId, playMode, locked: lockedStory, onPlayModeChange }: TaskDashboardProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const tasks = useTasks(storyId, open);
  const [view, setView] = useState<'init' | 'task' | null>(null);
  const [page, setPage] = useState(0);
  const [mode, setMode] = useState(playMode);
  useEffect(() => setMode(playMode), [playMode]);

  const info: TaskInfo | undefined = tasks.data;
  const locked = lockedStory || Boolean(info?.locked);
  const groups = info?.tasks_list ?? [];
  // With no group yet the dashboard opens on the suggestions.
  const current = view ?? (info && groups.length === 0 && !locked ? 'init' : 'task');

  const showError = (error: unknown) => {
    void message.error(getErrorMessage(error, t));
    if (isNotEnoughPower(error)) requestGetPower();
  };

  const changeMode = (next: PlayMode) => {
    setMode(next);
    onPlayModeChange(next).catch((error: unknown) => {
      setMode(playMode);
      showError(error);
    });
  };

  const modeSelect = (
    <Select
      value={mode}
      onChange={changeMode}
      disabled={locked}
      className="tl-tasks__mode"
      aria-label={t('tasks.playMode')}
      data-testid="tasks-play-mode"
      popupMatchSelectWidth={false}
      options={PLAY_MODES.map((m) => ({ value: m, label: t(`play.playModes.${m}`) }))}
    />
  );

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={760}
      title={t('tasks.title')}
      className="tl-tasks"
      destroyOnHidden
      closable={{ 'aria-label': t('common.close') }}
    >
      <div data-testid="task-dashboard">
        <div className="tl-tasks__summary">
          <span className="tl-tasks__stat" data-testid="tasks-total-score">
            <b>{info?.total_score ?? 0}</b> {t('tasks.totalScore', { count: info?.total_score ?? 0 })}
          </span>
          <span className="tl-tasks__stat">
            <b>{info?.complete_task ?? 0}</b> {t('tasks.completedGroups', { count: info?.complete_task ?? 0 })}
          </span>
          <span className="tl-tasks__stat">
            <b>{info?.current_turn ?? 0}</b> {t('tasks.currentTurn', { count: info?.current_turn ?? 0 })}
          </span>
          <span className="tl-tasks__mode-wrap">
            <span className="tl-tasks__mode-label">{t('tasks.playMode')}</span>
            {locked ? <Tooltip title={t('tasks.locked')}>{modeSelect}</Tooltip> : modeSelect}
          </span>
        </div>
        <p className="tl-tasks__mode-hint">{t(`tasks.modeHints.${mode}`)}</p>
        {locked ? <Alert type="info" showIcon title={t('tasks.locked')} className="tl-tasks__locked" data-testid="tasks-locked" /> : null}
        {tasks.isPending ? (
          <Skeleton active paragraph={{ rows: 5 }} />
        ) : tasks.isError ? (
          <Alert type="error" showIcon title={getErrorMessage(tasks.error, t)} />
        ) : current === 'init' ? (
          <TaskSuggestionsView
            storyId={storyId}
            stored={info!.suggestions}
            onBack={() => setView('task')}
            onAccepted={(index) => {
              setPage(index);
              setView('task');
            }}
            onError={showError}
          />
        ) : groups.length === 0 ? (
          <Empty description={t('tasks.empty')} data-testid="tasks-empty">
            {locked ? null : (
              <Button type="primary" onClick={() => setView('init')} data-testid="tasks-new-group">
                {t('tasks.newGroup')}
              </Button>
            )}
          </Empty>
        ) : (
          <TaskGroupView
            storyId={storyId}
            info={info!}
            page={Math.min(page, groups.length - 1)}
            onPage={setPage}
            locked={locked}
            onNewGroup={() => setView('init')}
            onError={showError}
          />
        )}
      </div>
    </Modal>
  );
}
