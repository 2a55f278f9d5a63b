import { GiftOutlined, MobileOutlined, ThunderboltFilled } from '@ant-design/icons';
import { FIRST_PHONE_BIND_POWER, INVITE_REWARD_POWER, type UserInfo } from '@taleloom/contracts';
import { Descriptions, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/intl-format';

interface AccountDialogProps {
  open: boolean;
  userInfo: UserInfo | null;
  onClose: () => void;
}

/** My account: user name, phone and power, with the two ways to earn power. */
export function AccountDialog({ open, userInfo, onClose }: AccountDialogProps) {
  const { t, i18n } = useTranslation();
  const number = (n: number) => formatNumber(n, i18n.language);
  const phone = userInfo?.phone ? `+${userInfo.phoneCountryCode} ${userInfo.phone}` : t('account.noPhone');
  return (
    <Modal open={open} title={t('userMenu.account')} onCancel={onClose} footer={null} centered data-testid="account-dialog">
      <Descriptions column={1} bordered size="small" className="tl-account">
        <Descriptions.Item label={t('account.userName')}>{userInfo?.userName}</Descriptions.Item>
        <Descriptions.Item label={t('account.phone')}>
          <span data-testid="account-phone">{phone}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('account.power')}>
          <span className="tl-power" data-testid="account-power">
            <ThunderboltFilled aria-hidden="true" /> {number(userInfo?.points ?? 0)}
          </span>
        </Descriptions.Item>
      </Descriptions>
      <Space direction="vertical" size={4} className="tl-account__hints">
        <Typography.Text type="secondary">
          <MobileOutlined aria-hidden="true" /> {t('account.bindHint', { power: number(FIRST_PHONE_BIND_POWER) })}
        </Typography.Text>
        <Typography.Text type="secondary">
          <GiftOutlined aria-hidden="true" /> {t('account.inviteHint', { power: number(INVITE_REWARD_POWER) })}
        </Typography.Text>
      </Space>
    </Modal>
  );
}
