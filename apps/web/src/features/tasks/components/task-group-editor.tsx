import { DeleteOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { TARGET_SCORES, TARGET_TYPES, TASK_TARGETS_MAX, TASK_TARGETS_MIN, type TaskGroup, type TaskTargetDto } from '@taleloom/contracts';
import { Alert, Button, Input, Select, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useUpdateTaskGroup } from '../api/update-task-group';
import { formatTaskError, parseTaskErrors, type TaskFieldError } from '../utils/task-errors';
import { blankLike } from '../utils/blank-like';
import { useFeedback } from '../../../components/feedback';

type EditTarget = TaskTargetDto & { completed?: boolean };

/**
 * Edit mode of a group (spec section 5): its name, main character and 1 to 4 targets. A new target
 * copies the shape of the first with blank or zero values; completed targets cannot be changed.
 * The server's field errors are listed as task number, field, failed, reason.
 */
export function TaskGroupEditor({ storyId, group, onDone }: { storyId: string; group: TaskGroup; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const update = useUpdateTaskGroup(storyId);
  const [seriesName, setSeriesName] = useState(group.series_name);
  const [mainCharacter, setMainCharacter] = useState(group.main_character);
  const [targets, setTargets] = useState<EditTarget[]>(group.targets.map((x) => ({ ...x })));
  const [errors, setErrors] = useState<TaskFieldError[]>([]);
  const [general, setGeneral] = useState<string | null>(null);

  const errorAt = (task: number | null, field: string) => errors.some((e) => e.task === task && e.field === field);
  const setTarget = (i: number, patch: Partial<EditTarget>) => setTargets((list) => list.map((x, k) => (k === i ? { ...x, ...patch } : x)));

  const save = () => {
    setErrors([]);
    setGeneral(null);
    update.mutate(
      { tasksId: group.tasks_id, body: { targets, series_name: seriesName, main_character: mainCharacter } },
      {
        onSuccess: () => {
          void message.success(t('tasks.edit.saved'));
          onDone();
        },
        onError: (error) => {
          const parsed = parseTaskErrors(error, t);
          setErrors(parsed);
          if (!parsed.length) setGeneral(getErrorMessage(error, t));
        },
      },
    );
  };

  return (
    <div className="tl-tasks-editor" data-testid="group-editor">
      <div className="tl-tasks-editor__names">
        <label>
          <span>{t('tasks.fields.series_name')}</span>
          <Input value={seriesName} maxLength={100} onChange={(e) => setSeriesName(e.target.value)} status={errorAt(null, 'series_name') ? 'error' : undefined} data-testid="edit-series-name" />
        </label>
        <label>
          <span>{t('tasks.fields.main_character')}</span>
          <Input value={mainCharacter} maxLength={50} onChange={(e) => setMainCharacter(e.target.value)} data-testid="edit-main-character" />
        </label>
      </div>
      <ol className="tl-tasks-editor__targets">
        {targets.map((target, i) => {
          const locked = Boolean(target.completed);
          return (
            <li key={target.id || `new-${i}`} className="tl-tasks-editor__target" data-testid="edit-target">
              <div className="tl-tasks-editor__target-head">
                <span className="tl-tasks-editor__number">{t('tasks.edit.taskNumber', { n: i + 1 })}</span>
                {locked ? (
                  <Tag icon={<LockOutlined aria-hidden="true" />} color="green">
                    {t('tasks.edit.completedLocked')}
                  </Tag>
                ) : null}
                <Tooltip title={t('tasks.edit.removeTarget')}>
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined aria-hidden="true" />}
                    aria-label={t('tasks.edit.removeTarget')}
                    disabled={locked || targets.length <= TASK_TARGETS_MIN}
                    onClick={() => setTargets((list) => list.filter((_, k) => k !== i))}
                    data-testid="edit-remove-target"
                  />
                </Tooltip>
              </div>
              <Input.TextArea
                value={target.title}
                autoSize={{ minRows: 1, maxRows: 4 }}
                maxLength={200}
                disabled={locked}
                placeholder={t('tasks.edit.titlePlaceholder')}
                aria-label={t('tasks.fields.title')}
                status={errorAt(i + 1, 'title') ? 'error' : undefined}
                onChange={(e) => setTarget(i, { title: e.target.value })}
                data-testid="edit-target-title"
              />
              <div className="tl-tasks-editor__selects">
                <Select
                  value={target.type || undefined}
                  disabled={locked}
                  placeholder={t('tasks.fields.type')}
                  aria-label={t('tasks.fields.type')}
                  status={errorAt(i + 1, 'type') ? 'error' : undefined}
                  onChange={(type) => setTarget(i, { type })}
                  options={TARGET_TYPES.map((v) => ({ value: v, label: t(`tasks.types.${v}`) }))}
                  data-testid="edit-target-type"
                />
                <Select
                  value={target.score || undefined}
                  disabled={locked}
                  placeholder={t('tasks.fields.score')}
                  aria-label={t('tasks.fields.score')}
                  status={errorAt(i + 1, 'score') ? 'error' : undefined}
                  onChange={(score) => setTarget(i, { score })}
                  options={TARGET_SCORES.map((v) => ({ value: v, label: t('tasks.target.points', { count: v }) }))}
                  data-testid="edit-target-score"
                />
              </div>
            </li>
          );
        })}
      </ol>
      <Button
        icon={<PlusOutlined aria-hidden="true" />}
        disabled={targets.length >= TASK_TARGETS_MAX}
        onClick={() => setTargets((list) => [...list, blankLike(list[0])])}
        data-testid="edit-add-target"
      >
        {t('tasks.edit.addTarget')}
      </Button>
      <p className="tl-tasks__hint">{t('tasks.edit.limit')}</p>
      {errors.length || general ? (
        <Alert
          type="error"
          showIcon
          title={t('tasks.edit.failed')}
          description={
            <ul className="tl-tasks-editor__errors" data-testid="edit-errors">
              {errors.map((e, k) => (
                <li key={k}>{formatTaskError(e, t)}</li>
              ))}
              {general ? <li>{general}</li> : null}
            </ul>
          }
        />
      ) : null}
      <div className="tl-tasks__actions">
        <Button type="primary" onClick={save} loading={update.isPending} data-testid="edit-save">
          {t('tasks.actions.save')}
        </Button>
        <Button onClick={onDone} data-testid="edit-cancel">
          {t('common.cancel')}
        </Button>
      </div>
    </div>
  );
}
