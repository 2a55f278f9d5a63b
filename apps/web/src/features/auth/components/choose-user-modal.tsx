import { MobileOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginData, UserInfo } from '@taleloom/contracts';
import { Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/intl-format';

interface ChooseUserModalProps {
  data: LoginData | null;
  onChoose: (token: string, userInfo: UserInfo) => void;
}

/** Both identities of one person: pick one. It cannot be closed: no close icon, Escape and mask clicks do nothing. */
export function ChooseUserModal({ data, onChoose }: ChooseUserModalProps) {
  const { t, i18n } = useTranslation();
  const when = (iso: string | null) =>
    iso ? formatDateTime(new Date(iso), i18n.language) : t('chooseUser.notVerified');
  const choices: { key: 'phone' | 'username'; token?: string; info?: UserInfo; icon: React.ReactNode }[] = [
    { key: 'phone', token: data?.phoneToken, info: data?.userInfo.phoneToken, icon: <MobileOutlined aria-hidden="true" /> },
    { key: 'username', token: data?.token, info: data?.userInfo.token, icon: <UserOutlined aria-hidden="true" /> },
  ];

  return (
    <Modal
      open={Boolean(data)}
      title={t('chooseUser.title')}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      footer={null}
      centered
      width={440}
      data-testid="choose-user-modal"
    >
      <Typography.Paragraph type="secondary">{t('chooseUser.body')}</Typography.Paragraph>
      <div className="tl-choose-user">
        {choices.map(({ key, token, info, icon }) =>
          token && info ? (
            <Button
              key={key}
              className="tl-choose-user__option"
              block
              onClick={() => onChoose(token, info)}
              data-testid={`choose-user-${key}`}
            >
              <span className="tl-choose-user__icon">{icon}</span>
              <span className="tl-choose-user__text">
                <span className="tl-choose-user__kind">{t(`chooseUser.${key}`)}</span>
                <span className="tl-choose-user__name">{info.userName}</span>
                <span className="tl-choose-user__when">{t('chooseUser.verifiedAt', { time: when(info.phoneVerifiedAt) })}</span>
              </span>
            </Button>
          ) : null,
        )}
      </div>
    </Modal>
  );
}
