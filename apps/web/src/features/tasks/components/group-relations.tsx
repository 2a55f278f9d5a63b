import type { TaskGroup } from '@taleloom/contracts';
import { CloseCircleFilled } from '@ant-design/icons';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateTaskGroup } from '../api/update-task-group';

type RelationField = 'preceding_task_groups' | 'subsequent_task_groups';

const same = (a: number[], b: number[]) => a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);

/** The groups that come before and after this one: two selectors, each saved when it loses focus (spec section 5). */
export function GroupRelations({ storyId, group, groups, disabled, onError }: {
  storyId: string;
  group: TaskGroup;
  groups: TaskGroup[];
  disabled: boolean;
  onError: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateTaskGroup(storyId);
  const [draft, setDraft] = useState({ preceding_task_groups: group.preceding_task_groups, subsequent_task_groups: group.subsequent_task_groups });
  useEffect(
    () => setDraft({ preceding_task_groups: group.preceding_task_groups, subsequent_task_groups: group.subsequent_task_groups }),
    [group.preceding_task_groups, group.subsequent_task_groups],
  );
  const options = groups
    .filter((g) => g.tasks_id !== group.tasks_id)
    .map((g) => ({ value: g.tasks_id, label: `#${g.tasks_id} ${g.series_name}` }));

  const save = (field: RelationField) => {
    if (same(draft[field], group[field])) return;
    update.mutate(
      { tasksId: group.tasks_id, body: { [field]: draft[field] } },
      {
        onError: (error) => {
          setDraft((d) => ({ ...d, [field]: group[field] }));
          onError(error);
        },
      },
    );
  };

  const selector = (field: RelationField, label: string, testId: string) => (
    <label className="tl-tasks-relations__item">
      <span className="tl-tasks-relations__label">{label}</span>
      <Select
        mode="multiple"
        allowClear={{ clearIcon: <CloseCircleFilled aria-hidden="true" />, label: t('common.clear') }}
        value={draft[field]}
        options={options}
        disabled={disabled}
        placeholder={t('tasks.relations.placeholder')}
        onChange={(value: number[]) => setDraft((d) => ({ ...d, [field]: value }))}
        onBlur={() => save(field)}
        aria-label={label}
        data-testid={testId}
      />
    </label>
  );

  return (
    <div className="tl-tasks-relations">
      {selector('preceding_task_groups', t('tasks.relations.preceding'), 'relations-preceding')}
      {selector('subsequent_task_groups', t('tasks.relations.subsequent'), 'relations-subsequent')}
    </div>
  );
}
