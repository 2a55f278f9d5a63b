import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button, Input, Modal, QRCode, Space } from 'antd';
import { Component, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { COPY_ICON_RESET_MS, shareLink } from '../utils/story-format';
import { useFeedback } from '../../../components/feedback';

interface ShareDialogProps {
  storyId: string;
  open: boolean;
  onClose: () => void;
}

/** The share dialog: the story's link with a copy button, and its QR code (200 wide, no margin). */
export function ShareDialog({ storyId, open, onClose }: ShareDialogProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [copied, setCopied] = useState(false);
  const link = shareLink(window.location.origin, storyId);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_ICON_RESET_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      void message.success(t('share.copied'));
    } catch {
      void message.error(t('share.copyFailed'));
    }
  };

  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('share.title')} destroyOnHidden>
      <div className="tl-share" data-testid="share-dialog">
        <Space.Compact className="tl-share__link">
          <Input readOnly value={link} aria-label={t('share.link')} data-testid="share-link" />
          <Button
            icon={copied ? <CheckOutlined aria-hidden="true" /> : <CopyOutlined aria-hidden="true" />}
            onClick={() => void copy()}
            data-testid="share-copy"
          >
            {copied ? t('share.copiedShort') : t('share.copy')}
          </Button>
        </Space.Compact>
        <QrBoundary
          fallback={
            <div className="tl-share__qr-failed" role="alert" data-testid="share-qr-failed">
              {t('share.qrFailed')}
            </div>
          }
        >
          <QRCode value={link} size={200} marginSize={0} bordered={false} type="svg" data-testid="share-qr" />
        </QrBoundary>
        <span>{t('share.hint')}</span>
      </div>
    </Modal>
  );
}

/** The QR encoder throws while rendering when it cannot encode the link (too long for any QR version): say so in its place. */
class QrBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
