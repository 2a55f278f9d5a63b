import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Says that the stream of the turn being written broke and is being rejoined (the text goes on where it stopped). */
export function ReconnectingNote() {
  const { t } = useTranslation();
  return (
    <div className="tl-play-turn__queued" role="status" aria-live="polite" data-testid="turn-reconnecting">
      <Spin size="small" /> {t('play.reconnecting')}
    </div>
  );
}
