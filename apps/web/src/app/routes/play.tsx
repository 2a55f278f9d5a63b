import { ReadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { PlaceholderScreen } from '../../components/placeholder-screen';
import './screens.css';

export function PlayRoute() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');

  return (
    <PlaceholderScreen
      testId="play-screen"
      icon={<ReadOutlined className="tl-placeholder__icon" aria-hidden="true" />}
      title={t('play.title')}
      body={
        <>
          {t('play.body')}
          {id ? <div>{t('play.storyId', { id })}</div> : null}
        </>
      }
      actionLabel={t('common.backToStories')}
    />
  );
}
