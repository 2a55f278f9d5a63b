import { CameraOutlined, ReloadOutlined, WarningOutlined } from '@ant-design/icons';
import type { StoryPicture } from '@taleloom/contracts';
import { Button, Spin, Tag, Tooltip } from 'antd';
import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/error-message';
import { usePictureFile } from '../api/get-picture-file';

// A Blob shown as an object URL that lives as long as the picture is on screen.
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return undefined;
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

/**
 * One picture beside its passage: drawn (with a Demo tag when the demo generator drew it), being
 * drawn (a placeholder of its size), or failed (why, and a retry).
 */
export function StoryPictureFigure({ picture, onRedraw, busy }: { picture: StoryPicture; onRedraw?: () => void; busy?: boolean }) {
  const { t } = useTranslation();
  const file = usePictureFile(picture.status === 'ready' ? picture.url : null);
  const src = useObjectUrl(file.data);
  const frame: CSSProperties = { aspectRatio: `${picture.width || 1} / ${picture.height || 1}` };
  const failedCode = picture.status === 'failed' ? (picture.errorCode ?? 'PICTURE_FAILED') : file.isError ? 'PICTURE_NOT_FOUND' : null;

  return (
    <figure
      className={`tl-picture tl-picture--${picture.status}`}
      style={{ '--tl-picture-aspect': `${(picture.width || 1) / (picture.height || 1)}` } as CSSProperties}
      data-testid="story-picture"
      data-status={picture.status}
      aria-label={t('play.pictures.figure')}
    >
      <div className="tl-picture__frame" style={frame}>
        {picture.status === 'ready' && src ? <img src={src} alt={picture.prompt || t('play.pictures.figure')} data-testid="story-picture-img" /> : null}
        {picture.status === 'pending' || (picture.status === 'ready' && !src && !file.isError) ? (
          <div className="tl-picture__placeholder" role="status">
            <Spin size="small" />
            {picture.status === 'pending' ? <span>{t('play.pictures.drawing')}</span> : null}
          </div>
        ) : null}
        {failedCode ? (
          <div className="tl-picture__placeholder tl-picture__placeholder--failed" data-testid="story-picture-error">
            <WarningOutlined aria-hidden="true" />
            <span>{file.isError ? t('play.pictures.loadFailed') : getErrorMessage(new ApiClientError(502, failedCode, ''), t)}</span>
            {onRedraw && picture.status === 'failed' ? (
              <Button size="small" icon={<ReloadOutlined aria-hidden="true" />} loading={busy} onClick={onRedraw} data-testid="story-picture-retry">
                {t('play.pictures.retry')}
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {picture.status === 'ready' && (picture.demo || onRedraw) ? (
        <figcaption className="tl-picture__caption">
          {picture.demo ? (
            <Tooltip title={t('play.pictures.demoTitle')}>
              <Tag className="tl-picture__demo" data-testid="story-picture-demo">
                {t('play.pictures.demo')}
              </Tag>
            </Tooltip>
          ) : (
            <span />
          )}
          {onRedraw ? (
            <Tooltip title={t('play.pictures.redraw')}>
              <Button type="text" size="small" icon={<CameraOutlined aria-hidden="true" />} aria-label={t('play.pictures.redraw')} loading={busy} onClick={onRedraw} data-testid="story-picture-redraw" />
            </Tooltip>
          ) : null}
        </figcaption>
      ) : null}
    </figure>
  );
}
