import { SettingOutlined } from '@ant-design/icons';
import { CUSTOM_MODEL_TYPE, customModelNameKey, type CustomModelView, type ModelChoice, type ModelListEntry, type ModelStatus } from '@taleloom/contracts';
import { Button, Divider, Select, Tag } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useModelList } from '../api/get-model-list';

const STATUS_COLORS = ['#22c55e', '#3b82f6', '#f59e0b', '#ef4444', '#9ca3af'];
const PLATFORM = 'platform:';
const CUSTOM = 'custom:';

export interface ModelSelectorProps {
  choice: ModelChoice;
  onChange: (choice: ModelChoice) => void;
  /** The user's own models, shown as their own group. */
  customModels?: CustomModelView[];
  /** Opens the custom model dialog (a button under the list). */
  onManage?: () => void;
  disabled?: boolean;
}

/**
 * The model selector: the platform models with their cost and measured status (the demo labelled),
 * then the user's own models (free: their key pays), and a way to manage those.
 */
export function ModelSelector({ choice, onChange, customModels = [], onManage, disabled }: ModelSelectorProps) {
  const { t } = useTranslation();
  const models = useModelList();
  const [open, setOpen] = useState(false);
  const platform = Array.isArray(models.data) ? models.data : [];
  const custom = choice.type === CUSTOM_MODEL_TYPE ? customModels.find((m) => customModelNameKey(m.model_name) === customModelNameKey(choice.name)) : undefined;
  const current = custom
    ? CUSTOM + custom.model_name
    : PLATFORM + (platform.some((m) => m.value === choice.name) && choice.type !== CUSTOM_MODEL_TYPE ? choice.name : (platform[0]?.value ?? ''));

  const options = [
    { label: t('customModels.groupPlatform'), title: t('customModels.groupPlatformTitle'), options: platform.map((m) => ({ value: PLATFORM + m.value, label: <PlatformLabel model={m} /> })) },
    ...(customModels.length
      ? [{ label: t('customModels.groupCustom'), title: t('customModels.groupCustomTitle'), options: customModels.map((m) => ({ value: CUSTOM + m.model_name, label: <CustomLabel model={m} /> })) }]
      : []),
  ];

  return (
    <Select
      className="tl-play-model"
      aria-label={t('play.model')}
      data-testid="model-selector"
      value={platform.length || custom ? current : undefined}
      loading={models.isPending}
      disabled={disabled}
      open={open}
      onOpenChange={setOpen}
      onChange={(value: string) =>
        onChange(value.startsWith(CUSTOM) ? { type: CUSTOM_MODEL_TYPE, name: value.slice(CUSTOM.length) } : { type: 'platform', name: value.slice(PLATFORM.length) })
      }
      popupMatchSelectWidth={false}
      options={options}
      popupRender={(menu) => (
        <>
          {menu}
          {onManage ? (
            <>
              <Divider className="tl-play-model__divider" />
              <Button
                type="text"
                block
                icon={<SettingOutlined aria-hidden="true" />}
                onClick={() => {
                  setOpen(false);
                  onManage();
                }}
                data-testid="model-selector-manage"
              >
                {t('customModels.manage')}
              </Button>
            </>
          ) : null}
        </>
      )}
    />
  );
}

function ModelLabel({ status, name, tags, cost }: { status: ModelStatus; name: string; tags?: ReactNode; cost: string }) {
  const { t } = useTranslation();
  const s = Math.min(Math.max(status, 0), 4);
  return (
    <span className="tl-play-model__label" title={t(`play.modelStatus.${s}` as 'play.modelStatus.0')}>
      <span className="tl-play-model__dot" style={{ background: STATUS_COLORS[s] }} aria-hidden="true" />
      <span className="tl-play-model__name">{name}</span>
      {tags}
      <span className="tl-play-model__cost">{cost}</span>
    </span>
  );
}

function PlatformLabel({ model }: { model: ModelListEntry }) {
  const { t } = useTranslation();
  return (
    <ModelLabel
      status={model.status}
      // The offline demo is ours: its name follows the interface language (operators name their own models).
      name={model.demo ? t('play.demoModelName') : model.label}
      tags={model.demo ? <Tag color="purple">{t('play.demo')}</Tag> : null}
      cost={model.points ? t('play.modelCost', { points: model.points }) : t('play.modelFree')}
    />
  );
}

function CustomLabel({ model }: { model: CustomModelView }) {
  const { t } = useTranslation();
  return (
    <ModelLabel
      status={model.status}
      name={model.model_name}
      tags={model.enable_reasoning ? <Tag color="geekblue">{t('customModels.reasoningTag')}</Tag> : null}
      cost={t('customModels.free')}
    />
  );
}
