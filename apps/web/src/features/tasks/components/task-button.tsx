import { CheckSquareOutlined } from '@ant-design/icons';
import type { PlayMode } from '@taleloom/contracts';
import { Badge, Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskStatus } from '../api/get-task-status';

// The dashboard's code loads when it is first opened, not with the play screen.
const TaskDashboard = lazy(() => import('./task-dashboard').then((m) => ({ default: m.TaskDashboard })));

export interface TaskButtonProps {
  storyId: string;
  playMode: PlayMode;
  /** A story of an activity: task editing, deletion, new groups and mode change are hidden. */
  locked: boolean;
  /** Saves the play mode at once (PATCH /api/llm). */
  onPlayModeChange: (mode: PlayMode) => Promise<unknown>;
}

/** The play toolbar's task entry: the total score as a badge (from the 30-second status poll) and the dashboard. */
export function TaskButton({ storyId, playMode, locked, onPlayModeChange }: TaskButtonProps) {
  const { t } = useTranslation();
  const status = useTaskStatus(storyId);
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so the dashboard keeps its page and view when closed and reopened.
  const [opened, setOpened] = useState(false);
  const score = status.data?.total_score ?? 0;
  return (
    <>
      <Badge count={score} overflowCount={999} size="small" color="#7c3aed" title={t('tasks.badgeHint', { score })}>
        <Button
          icon={<CheckSquareOutlined aria-hidden="true" />}
          onClick={() => {
            setOpened(true);
            setOpen(true);
          }}
          data-testid="toolbar-task"
        >
          <span className="tl-play-toolbar__label">{t('play.task')}</span>
        </Button>
      </Badge>
      {opened ? (
        <Suspense fallback={null}>
          <TaskDashboard
            open={open}
            onClose={() => setOpen(false)}
            storyId={storyId}
            playMode={playMode}
            locked={locked}
            onPlayModeChange={onPlayModeChange}
          />
        </Suspense>
      ) : null}
    </>
  );
}
