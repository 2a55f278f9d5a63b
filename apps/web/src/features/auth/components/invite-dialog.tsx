import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { INVITE_REWARD_POWER } from '@taleloom/contracts';
import { Alert, Button, Input, Modal, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { useInviteCodeQuery } from '../api/get-invite-code';
import { useFeedback } from '../../../components/feedback';
import { formatNumber } from '../../../lib/intl-format';

const COPIED_MS = 1000;

interface InviteDialogProps {
  open: boolean;
  userID: string | undefined;
  onClose: () => void;
}

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers and insecure origins: the selection route.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/** The invite link {origin}/i/{code} with a copy button whose icon turns into a tick for a second. */
export function InviteDialog({ open, userID, onClose }: InviteDialogProps) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const invite = useInviteCodeQuery(open ? userID : undefined);
  const [copied, setCopied] = useState(false);
  const link = invite.data ? `${window.location.origin}/i/${invite.data}` : '';

  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await copyText(link);
      setCopied(true);
      void message.success(t('invite.copied'));
    } catch {
      void message.error(t('invite.copyFailed'));
    }
  };

  return (
    <Modal open={open} title={t('userMenu.invite')} onCancel={onClose} footer={null} centered data-testid="invite-dialog">
      <Typography.Paragraph>
        {t('invite.body', { power: formatNumber(INVITE_REWARD_POWER, i18n.language) })}
      </Typography.Paragraph>
      {invite.isError ? (
        <Alert type="error" showIcon title={invite.error ? getErrorMessage(invite.error, t) || t('invite.failed') : t('invite.failed')} />
      ) : invite.isLoading ? (
        <Spin />
      ) : (
        <Space.Compact block>
          <Input value={link} readOnly aria-label={t('invite.link')} data-testid="invite-link" />
          <Button
            type="primary"
            icon={copied ? <CheckOutlined aria-hidden="true" /> : <CopyOutlined aria-hidden="true" />}
            onClick={() => void copy()}
            data-testid="invite-copy"
            data-copied={copied ? 'true' : 'false'}
          >
            {t('invite.copy')}
          </Button>
        </Space.Compact>
      )}
    </Modal>
  );
}
