import { CheckCircleFilled, CrownOutlined, GiftOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { DAILY_CHECK_IN_POWER, ROYALTY_PERCENT } from '@taleloom/contracts';
import { Button, Modal, Progress } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isApiClientError } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { getErrorMessage } from '../../../lib/error-message';
import { useCheckInMutation } from '../api/check-in';
import { useCheckInStatusQuery } from '../api/get-check-in-status';
import './power.css';
import { useFeedback } from '../../../components/feedback';
import { formatNumber } from '../../../lib/intl-format';

function checkInFailure(error: unknown, t: TFunction): string {
  const failed = t('power.dialog.checkInFailed');
  if (!isApiClientError(error) || !error.code) return failed;
  // Chinese sentences follow each other without a space.
  return [failed, getErrorMessage(error, t)].join(i18n.language.startsWith('zh') ? '' : ' ');
}

// Invitation rewards are paid by the invitation feature; the amount is the spec's (section 9).
const INVITE_POWER = 100000;

interface PowerDialogProps {
  open: boolean;
  onClose: () => void;
  /** The publish button (the stories feature's picker of my private stories, composed in by the app). */
  publishButton?: ReactNode;
}

/** "Get power" (spec section 2, stories screen): daily check-in, invitation, royalties, publishing. */
export function PowerDialog({ open, onClose, publishButton }: PowerDialogProps) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const status = useCheckInStatusQuery(open);
  const checkIn = useCheckInMutation();
  const checkedIn = status.data?.dailyCheckinStatus === true;
  const amount = (n: number) => formatNumber(n, i18n.language);

  const onCheckIn = () =>
    checkIn.mutate(undefined, {
      onSuccess: (data) => void message.success(t('power.dialog.checkInDone', { points: amount(data.awarded) })),
      // Spec (error catalogue): "Check-in failed, please try later", with the reason when the server gave one.
      onError: (error) => void message.error(checkInFailure(error, t)),
    });

  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('power.dialog.title')} centered destroyOnHidden>
      <div className="tl-power-tasks" data-testid="power-dialog">
        <section className="tl-power-task">
          <div className="tl-power-task__head">
            <span>
              <ThunderboltOutlined aria-hidden="true" /> {t('power.dialog.checkInTitle')}
            </span>
            <Button
              type="primary"
              onClick={onCheckIn}
              loading={checkIn.isPending}
              disabled={checkedIn || status.isPending}
              icon={checkedIn ? <CheckCircleFilled aria-hidden="true" /> : undefined}
              data-testid="power-check-in"
            >
              {checkedIn ? t('power.dialog.checkedIn') : t('power.dialog.checkIn')}
            </Button>
          </div>
          <div className="tl-power-task__body">{t('power.dialog.checkInBody', { points: amount(DAILY_CHECK_IN_POWER) })}</div>
          <Progress
            percent={checkedIn ? 100 : 0}
            format={() => (checkedIn ? '1 / 1' : '0 / 1')}
            aria-label={t('power.dialog.checkInProgress')}
            data-testid="power-check-in-progress"
          />
        </section>
        <section className="tl-power-task">
          <div className="tl-power-task__head">
            <span>
              <GiftOutlined aria-hidden="true" /> {t('power.dialog.inviteTitle')}
            </span>
          </div>
          <div className="tl-power-task__body">{t('power.dialog.inviteBody', { points: amount(INVITE_POWER) })}</div>
        </section>
        <section className="tl-power-task">
          <div className="tl-power-task__head">
            <span>
              <CrownOutlined aria-hidden="true" /> {t('power.dialog.royaltyTitle')}
            </span>
            {publishButton}
          </div>
          <div className="tl-power-task__body">{t('power.dialog.royaltyBody', { percent: ROYALTY_PERCENT })}</div>
        </section>
      </div>
    </Modal>
  );
}
