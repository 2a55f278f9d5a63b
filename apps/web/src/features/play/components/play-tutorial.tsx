import { Button, Modal, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '../hooks/use-media-query';

// The spec's tutorial breakpoint: below 768 px it takes its phone layout.
const PHONE_QUERY = '(max-width: 767px)';

/** The 3-step tutorial, shown the first time (see useShowGuide), and again from the play screen's help button. */
export function PlayTutorial({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery(PHONE_QUERY);
  const [step, setStep] = useState(0);
  const close = () => {
    setStep(0);
    onClose();
  };
  const steps = [0, 1, 2].map((i) => ({ title: t(`play.guide.${i}.title` as 'play.guide.0.title'), body: t(`play.guide.${i}.body` as 'play.guide.0.body') }));
  const last = step === steps.length - 1;
  return (
    <Modal
      open={open}
      onCancel={close}
      title={t('play.guide.title')}
      width={phone ? '100%' : 520}
      centered={!phone}
      className={phone ? 'tl-play-guide tl-play-guide--phone' : 'tl-play-guide'}
      footer={[
        step > 0 ? (
          <Button key="back" onClick={() => setStep((s) => s - 1)}>
            {t('play.guide.previous')}
          </Button>
        ) : null,
        <Button key="next" type="primary" data-testid="tutorial-next" onClick={() => (last ? close() : setStep((s) => s + 1))}>
          {last ? t('play.guide.done') : t('play.guide.next')}
        </Button>,
      ]}
    >
      <div data-testid="play-tutorial" data-layout={phone ? 'phone' : 'desktop'}>
        <Steps size="small" orientation={phone ? 'vertical' : 'horizontal'} current={step} items={steps.map((s) => ({ title: s.title }))} className="tl-play-guide__steps" />
        <p className="tl-play-guide__body" data-testid="tutorial-body">
          {steps[step].body}
        </p>
      </div>
    </Modal>
  );
}
