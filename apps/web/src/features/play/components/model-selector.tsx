import type { ModelListEntry } from '@taleloom/contracts';
import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useModelList } from '../api/get-model-list';

const STATUS_COLORS = ['#22c55e', '#3b82f6', '#f59e0b', '#ef4444', '#9ca3af'];

/** The model selector: each platform model with its cost and measured status; the demo is labelled. */
export function ModelSelector({ value, onChange, disabled }: { value: string; onChange: (value: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const models = useModelList();
  const list = Array.isArray(models.data) ? models.data : [];
  const current = list.some((m) => m.value === value) ? value : list[0]?.value;
  return (
    <Select
      className="tl-play-model"
      aria-label={t('play.model')}
      data-testid="model-selector"
      value={current}
      loading={models.isPending}
      disabled={disabled}
      onChange={onChange}
      popupMatchSelectWidth={false}
      options={list.map((m) => ({ value: m.value, label: <ModelLabel model={m} /> }))}
    />
  );
}

function ModelLabel({ model }: { model: ModelListEntry }) {
  const { t } = useTranslation();
  const status = Math.min(Math.max(model.status, 0), 4);
  return (
    <span className="tl-play-model__label" title={t(`play.modelStatus.${status}` as 'play.modelStatus.0')}>
      <span className="tl-play-model__dot" style={{ background: STATUS_COLORS[status] }} aria-hidden="true" />
      <span className="tl-play-model__name">{model.label}</span>
      {model.demo ? <Tag color="purple">{t('play.demo')}</Tag> : null}
      <span className="tl-play-model__cost">{model.points ? t('play.modelCost', { points: model.points }) : t('play.modelFree')}</span>
    </span>
  );
}
