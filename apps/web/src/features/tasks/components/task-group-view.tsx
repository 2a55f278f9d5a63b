import { CheckCircleFilled, ClockCircleOutlined, DeleteOutlined, EditOutlined, PlusOutlined, TrophyOutlined } from '@ant-design/icons';
import type { TaskGroup, TaskInfo } from '@taleloom/contracts';
import { Button, Pagination, Popconfirm, Tag, Tooltip, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteTaskGroup } from '../api/delete-task-group';
import { useTaskScore } from '../hooks/use-task-score';
import { EvidenceQuote } from './evidence-quote';
import { GroupRelations } from './group-relations';
import { ScoreDialog } from './score-dialog';
import { TargetTags } from './target-tags';
import { TaskGroupEditor } from './task-group-editor';
import { useFeedback } from '../../../components/feedback';

export interface TaskGroupViewProps {
  storyId: string;
  info: TaskInfo;
  page: number;
  onPage: (page: number) => void;
  locked: boolean;
  onNewGroup: () => void;
  onError: (error: unknown) => void;
}

const maxScore = (g: TaskGroup) => g.targets.reduce((sum, t) => sum + t.score, 0);

/** The dashboard's task view: one group per page with its targets, relations, edit, update score and delete. */
export function TaskGroupView({ storyId, info, page, onPage, locked, onNewGroup, onError }: TaskGroupViewProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const remove = useDeleteTaskGroup(storyId);
  const [editing, setEditing] = useState<number | null>(null);
  const scoring = useTaskScore(storyId);
  const [scored, setScored] = useState<TaskGroup | null>(null);
  const groups = info.tasks_list;
  const group = groups[page];
  if (!group) return null;
  const complete = group.targets.every((x) => x.completed);
  const hasCompleted = group.targets.some((x) => x.completed);
  const scoredNow = group.tasks_scored_at_turn === info.current_turn;

  if (editing === group.tasks_id) {
    return <TaskGroupEditor storyId={storyId} group={group} onDone={() => setEditing(null)} />;
  }

  const onDelete = () =>
    remove.mutate(
      { index: page, tasksId: group.tasks_id },
      {
        onSuccess: () => {
          void message.success(t('tasks.actions.deleted'));
          onPage(Math.max(0, page - 1));
        },
        onError,
      },
    );

  return (
    <div className="tl-tasks-view" data-testid="tasks-view">
      <div className="tl-tasks-view__pager">
        <Pagination
          simple={{ readOnly: true }}
          size="small"
          current={page + 1}
          total={groups.length}
          pageSize={1}
          onChange={(p) => onPage(p - 1)}
          data-testid="tasks-pagination"
        />
        {locked ? null : (
          <Button size="small" icon={<PlusOutlined aria-hidden="true" />} onClick={onNewGroup} data-testid="tasks-new-group">
            {t('tasks.newGroup')}
          </Button>
        )}
      </div>
      <section className="tl-tasks-card" data-testid="task-group">
        <header className="tl-tasks-card__head">
          <span className="tl-tasks-card__title" data-testid="group-name">
            {group.series_name}
          </span>
          <Tag>{t('tasks.group.number', { id: group.tasks_id })}</Tag>
          {info.current_tasks_id === group.tasks_id ? <Tag color="purple">{t('tasks.group.current')}</Tag> : null}
          {complete ? <Tag color="green">{t('tasks.group.complete')}</Tag> : null}
          <span className="tl-tasks-card__score" data-testid="group-score">
            <TrophyOutlined aria-hidden="true" /> {t('tasks.group.score', { score: group.score, max: maxScore(group) })}
          </span>
        </header>
        <div className="tl-tasks-card__meta">
          {group.main_character ? <span>{t('tasks.group.mainCharacter', { name: group.main_character })}</span> : null}
          <span>{t('tasks.group.createdAt', { turn: group.tasks_created_at_turn })}</span>
          <span>{group.tasks_scored_at_turn === null ? t('tasks.group.neverScored') : t('tasks.group.scoredAt', { turn: group.tasks_scored_at_turn })}</span>
        </div>
        <ol className="tl-tasks-targets">
          {group.targets.map((target) => (
            <li key={target.id} className={`tl-tasks-target ${target.completed ? 'tl-tasks-target--done' : ''}`} data-testid="group-target">
              <div className="tl-tasks-target__line">
                {target.completed ? (
                  <CheckCircleFilled className="tl-tasks-target__icon tl-tasks-target__icon--done" aria-label={t('tasks.target.doneLabel')} data-testid="target-done" />
                ) : (
                  <ClockCircleOutlined className="tl-tasks-target__icon" aria-label={t('tasks.target.open')} />
                )}
                <span className="tl-tasks-target__title">{target.title}</span>
                <TargetTags type={target.type} score={target.score} />
              </div>
              <div className="tl-tasks-target__meta">
                {target.completed && target.complete_turn !== null ? <span>{t('tasks.target.done', { turn: target.complete_turn })}</span> : null}
                {target.current_probability !== null ? (
                  <span>
                    {target.original_probability !== null && target.original_probability !== target.current_probability
                      ? t('tasks.target.probability', { from: target.original_probability, to: target.current_probability })
                      : t('tasks.target.probabilityNow', { to: target.current_probability })}
                  </span>
                ) : null}
              </div>
              {target.completed && target.evidence ? (
                <EvidenceQuote text={target.evidence} testId="target-evidence" />
              ) : null}
              {target.reason && !target.completed ? <div className="tl-tasks-target__reason">{target.reason}</div> : null}
            </li>
          ))}
        </ol>
        {groups.length > 1 ? <GroupRelations storyId={storyId} group={group} groups={groups} disabled={locked} onError={onError} /> : null}
      </section>
      <div className="tl-tasks__actions">
        <Tooltip title={complete ? t('tasks.actions.allDone') : scoredNow ? t('errors.TASK_ALREADY_SCORED') : undefined}>
          <Button
            type="primary"
            icon={<TrophyOutlined aria-hidden="true" />}
            onClick={() => {
              setScored(group);
              void scoring.start(page, group.tasks_id);
            }}
            disabled={complete}
            data-testid="group-score-button"
          >
            {t('tasks.actions.score')}
          </Button>
        </Tooltip>
        {locked ? null : (
          <>
            <Button icon={<EditOutlined aria-hidden="true" />} onClick={() => setEditing(group.tasks_id)} data-testid="group-edit">
              {t('tasks.actions.edit')}
            </Button>
            <Tooltip title={hasCompleted ? t('errors.TASK_COMPLETED', { task: group.targets.findIndex((x) => x.completed) + 1 }) : undefined}>
              <Popconfirm
                title={t('tasks.actions.deleteConfirm')}
                okText={t('tasks.actions.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'group-delete-ok' } as ButtonProps}
                onConfirm={onDelete}
                disabled={hasCompleted}
              >
                <Button danger icon={<DeleteOutlined aria-hidden="true" />} disabled={hasCompleted} loading={remove.isPending} data-testid="group-delete">
                  {t('tasks.actions.delete')}
                </Button>
              </Popconfirm>
            </Tooltip>
          </>
        )}
      </div>
      <ScoreDialog
        group={scored}
        view={scoring.view}
        onClose={() => {
          scoring.reset();
          setScored(null);
        }}
      />
    </div>
  );
}
