import { Button, Image, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '../api/get-site-config';

const SEEN_KEY = 'activitySeen';

function seenTitle(): string | null {
  try {
    return window.localStorage.getItem(SEEN_KEY);
  } catch {
    return null;
  }
}

/** The operator's activity notice: shown once per activity (remembered locally by its title). */
export function ActivityModal() {
  const { t } = useTranslation();
  const { data } = useSiteConfig();
  const [dismissed, setDismissed] = useState<string | null>(seenTitle);
  const activity = data?.activity;
  if (!activity || dismissed === activity.title) return null;
  const close = () => {
    try {
      window.localStorage.setItem(SEEN_KEY, activity.title);
    } catch {
      // without storage it shows again next time; harmless
    }
    setDismissed(activity.title);
  };
  return (
    <Modal open title={activity.title} onCancel={close} footer={null} data-testid="activity-modal">
      {activity.imageUrl ? <Image src={activity.imageUrl} preview={false} alt={activity.title} /> : null}
      {activity.link ? (
        <Typography.Paragraph className="tl-activity__link">
          <Button type="primary" href={activity.link} onClick={close}>
            {t('stories.activityOpen')}
          </Button>
        </Typography.Paragraph>
      ) : null}
    </Modal>
  );
}
