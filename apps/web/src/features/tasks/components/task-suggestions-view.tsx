import { BulbOutlined, SwapOutlined } from '@ant-design/icons';
import type { TaskSuggestions } from '@taleloom/contracts';
import { Button, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddTaskGroup } from '../api/add-task-group';
import { useTaskSuggestions } from '../hooks/use-task-suggestions';
import { TargetTags } from './target-tags';
import { useFeedback } from '../../../components/feedback';

export interface TaskSuggestionsViewProps {
  storyId: string;
  stored: TaskSuggestions | null;
  onBack: () => void;
  /** A suggestion became the group at this index. */
  onAccepted: (index: number) => void;
  onError: (error: unknown) => void;
}

/** The dashboard's init view: suggestions stream in; accept one, switch to the next set, or go back. */
export function TaskSuggestionsView({ storyId, stored, onBack, onAccepted, onError }: TaskSuggestionsViewProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const { suggestions, streaming, retrying, start } = useTaskSuggestions(storyId, stored, onError);
  const add = useAddTaskGroup(storyId);
  const [shown, setShown] = useState(0);
  const groups = suggestions?.groups ?? [];
  useEffect(() => {
    if (shown >= groups.length && groups.length > 0) setShown(0);
  }, [groups.length, shown]);
  const suggestion = groups[Math.min(shown, groups.length - 1)];

  const accept = () => {
    if (!suggestions || !suggestion) return;
    add.mutate(
      { batch: suggestions.batch, index: shown },
      {
        onSuccess: (info) => {
          void message.success(t('tasks.init.accepted'));
          const added = info.suggestions?.groups[shown]?.accepted_as;
          onAccepted(Math.max(0, info.tasks_list.findIndex((g) => g.tasks_id === added)));
        },
        onError,
      },
    );
  };

  return (
    <div className="tl-tasks-init" data-testid="tasks-init">
      <p className="tl-tasks__intro">{t('tasks.init.intro')}</p>
      {streaming ? (
        <div className="tl-tasks-init__progress" role="status" data-testid="tasks-streaming">
          <Spin size="small" /> {retrying ? t('tasks.init.retrying') : t('tasks.init.writing')}
        </div>
      ) : null}
      {suggestion ? (
        <section className="tl-tasks-card" aria-live="polite" data-testid="task-suggestion">
          <header className="tl-tasks-card__head">
            <span className="tl-tasks-card__title" data-testid="suggestion-name">{suggestion.series_name}</span>
            <span className="tl-tasks-card__counter" data-testid="suggestion-counter">
              {t('tasks.init.counter', { n: Math.min(shown, groups.length - 1) + 1, total: groups.length })}
            </span>
          </header>
          {suggestion.main_character ? <div className="tl-tasks-card__meta">{t('tasks.group.mainCharacter', { name: suggestion.main_character })}</div> : null}
          <ol className="tl-tasks-targets">
            {suggestion.targets.map((target, i) => (
              <li key={i} className="tl-tasks-target">
                <div className="tl-tasks-target__line">
                  <span className="tl-tasks-target__title">{target.title}</span>
                  <TargetTags type={target.type} score={target.score} />
                </div>
                {target.probability !== null ? (
                  <div className="tl-tasks-target__meta tl-tasks-target__meta--flush">{t('tasks.target.probabilityNow', { to: target.probability })}</div>
                ) : null}
              </li>
            ))}
          </ol>
          {suggestion.accepted_as !== null ? <Tag color="green">{t('tasks.init.acceptedAs', { id: suggestion.accepted_as })}</Tag> : null}
        </section>
      ) : null}
      <div className="tl-tasks__actions">
        {suggestion ? (
          <>
            <Button
              type="primary"
              onClick={accept}
              loading={add.isPending}
              disabled={streaming || suggestion.accepted_as !== null}
              data-testid="suggestion-accept"
            >
              {t('tasks.init.accept')}
            </Button>
            <Button
              icon={<SwapOutlined aria-hidden="true" />}
              onClick={() => setShown((s) => (s + 1) % groups.length)}
              disabled={groups.length < 2}
              data-testid="suggestion-switch"
            >
              {t('tasks.init.switch')}
            </Button>
          </>
        ) : null}
        <Button
          type={suggestion ? 'default' : 'primary'}
          icon={<BulbOutlined aria-hidden="true" />}
          onClick={() => {
            setShown(0);
            void start();
          }}
          loading={streaming}
          data-testid="suggestion-create"
        >
          {suggestion ? t('tasks.init.suggestAgain') : t('tasks.init.suggest')}
        </Button>
        <Button onClick={onBack} data-testid="suggestion-back">
          {t('tasks.init.back')}
        </Button>
      </div>
    </div>
  );
}
