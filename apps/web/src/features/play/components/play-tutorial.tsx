import { Button, Modal, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The 3-step tutorial, shown the first time (see useShowGuide). */
export function PlayTutorial({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const steps = [0, 1, 2].map((i) => ({ title: t(`play.guide.${i}.title` as 'play.guide.0.title'), body: t(`play.guide.${i}.body` as 'play.guide.0.body') }));
  const last = step === steps.length - 1;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('play.guide.title')}
      footer={[
        step > 0 ? (
          <Button key="back" onClick={() => setStep((s) => s - 1)}>
            {t('play.guide.previous')}
          </Button>
        ) : null,
        <Button key="next" type="primary" data-testid="tutorial-next" onClick={() => (last ? onClose() : setStep((s) => s + 1))}>
          {last ? t('play.guide.done') : t('play.guide.next')}
        </Button>,
      ]}
    >
      <div data-testid="play-tutorial">
        <Steps size="small" current={step} items={steps.map((s) => ({ title: s.title }))} className="tl-play-guide__steps" />
        <p className="tl-play-guide__body" data-testid="tutorial-body">
          {steps[step].body}
        </p>
      </div>
    </Modal>
  );
}
