import { StarFilled } from '@ant-design/icons';
import type { TargetType } from '@taleloom/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** A target's type and score (1 to 3 stars). */
export function TargetTags({ type, score }: { type: TargetType | ''; score: number }) {
  const { t } = useTranslation();
  return (
    <span className="tl-tasks-target__tags">
      {type ? <Tag color={type === 'emotion' ? 'magenta' : 'geekblue'}>{t(`tasks.types.${type}`)}</Tag> : null}
      <span className="tl-tasks-target__stars" aria-label={t('tasks.target.points', { count: score })} title={t('tasks.target.points', { count: score })}>
        {Array.from({ length: Math.max(0, Math.min(3, score)) }, (_, i) => (
          <StarFilled key={i} aria-hidden="true" />
        ))}
      </span>
    </span>
  );
}
