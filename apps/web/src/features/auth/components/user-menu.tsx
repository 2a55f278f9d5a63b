import {
  GiftOutlined,
  KeyOutlined,
  LogoutOutlined,
  MobileOutlined,
  ThunderboltFilled,
  UnorderedListOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { UserInfo } from '@taleloom/contracts';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLogout } from '../hooks/use-logout';
import './user-menu.css';
import { useFeedback } from '../../../components/feedback';
import { lazyDialog } from '../../../components/lazy-dialog';
import { formatNumber } from '../../../lib/intl-format';

// The dialogs (and their forms, phone input and reads) load when one is first opened, not with every page,
// and stay mounted from then on (they close with their animation): lazyDialog.
const AccountDialog = lazyDialog(() => import('./account-dialog').then((m) => m.AccountDialog));
const BindPhoneDialog = lazyDialog(() => import('./bind-phone-dialog').then((m) => m.BindPhoneDialog));
const InviteDialog = lazyDialog(() => import('./invite-dialog').then((m) => m.InviteDialog));
const ResetPasswordDialog = lazyDialog(() => import('./reset-password-dialog').then((m) => m.ResetPasswordDialog));

type DialogKey = 'account' | 'invite' | 'bindPhone' | 'resetPassword';
type MenuKey = DialogKey | 'powerDetails';

interface UserMenuProps {
  userInfo: UserInfo | null;
  /** What an item opens instead of this feature's own dialog; the app layer supplies other features' dialogs (power details). */
  actions?: Partial<Record<MenuKey, () => void>>;
}

/** The signed-in user's menu: name and power on top, account actions, logout. */
export function UserMenu({ userInfo, actions }: UserMenuProps) {
  const { t, i18n } = useTranslation();
  const { modal } = useFeedback();
  const logout = useLogout();
  const name = userInfo?.userName ?? '';
  // Formatted when the menu opens: the first number format of a page costs tens of milliseconds.
  const power = () => formatNumber(userInfo?.points ?? 0, i18n.language);

  const [dialog, setDialog] = useState<DialogKey | null>(null);
  const close = () => setDialog(null);

  // Power details comes from the power feature through `actions`; without it the item says so.
  const showComingSoon = () => {
    modal.info({
      title: t('common.comingSoon'),
      content: t('common.comingSoonBody', { feature: t('userMenu.powerDetails') }),
      okText: t('common.ok'),
      centered: true,
    });
  };

  const items: MenuProps['items'] = [
    { key: 'account', icon: <UserOutlined aria-hidden="true" />, label: t('userMenu.account'), 'data-testid': 'user-menu-account' },
    { key: 'powerDetails', icon: <UnorderedListOutlined aria-hidden="true" />, label: t('userMenu.powerDetails'), 'data-testid': 'user-menu-power' },
    { key: 'invite', icon: <GiftOutlined aria-hidden="true" />, label: t('userMenu.invite'), 'data-testid': 'user-menu-invite' },
    { key: 'bindPhone', icon: <MobileOutlined aria-hidden="true" />, label: t('userMenu.bindPhone'), 'data-testid': 'user-menu-bind-phone' },
    {
      key: 'resetPassword',
      icon: <KeyOutlined aria-hidden="true" />,
      label: userInfo?.phoneVerified ? (
        t('userMenu.resetPassword')
      ) : (
        <span title={t('userMenu.resetPasswordDisabled')}>{t('userMenu.resetPassword')}</span>
      ),
      disabled: !userInfo?.phoneVerified,
      'data-testid': 'user-menu-reset-password',
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined aria-hidden="true" />, label: t('userMenu.logout'), danger: true, 'data-testid': 'user-menu-logout' },
  ] as MenuProps['items'];

  return (
    <>
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          items,
          onClick: ({ key }) => {
            const action = actions?.[key as MenuKey];
            if (key === 'logout') logout();
            else if (action) action();
            else if (key === 'powerDetails') showComingSoon();
            else setDialog(key as DialogKey);
          },
        }}
        popupRender={(menu) => (
          <div className="tl-user-menu">
            <div className="tl-user-menu__header" data-testid="user-menu-header">
              <Avatar size={40} icon={<UserOutlined aria-hidden="true" />} className="tl-user-menu__avatar" />
              <div className="tl-user-menu__who">
                <div className="tl-user-menu__name" data-testid="user-menu-name">
                  {name}
                </div>
                <div className="tl-user-menu__power" data-testid="user-menu-power-value">
                  <ThunderboltFilled aria-hidden="true" />
                  <span>
                    {t('userMenu.power')} {power()}
                  </span>
                </div>
              </div>
            </div>
            {menu}
          </div>
        )}
      >
        <Button
          type="text"
          className="tl-topbar__button tl-topbar__user"
          data-testid="user-menu-trigger"
          aria-label={name ? t('userMenu.open', { name }) : t('userMenu.openAnonymous')}
        >
          <Avatar size={28} icon={<UserOutlined aria-hidden="true" />} />
          <span className="tl-topbar__user-name">{name}</span>
        </Button>
      </Dropdown>
      <AccountDialog open={dialog === 'account'} userInfo={userInfo} onClose={close} />
      <InviteDialog open={dialog === 'invite'} userID={userInfo?.userID} onClose={close} />
      <BindPhoneDialog open={dialog === 'bindPhone'} onClose={close} />
      <ResetPasswordDialog open={dialog === 'resetPassword'} userInfo={userInfo} onClose={close} />
    </>
  );
}
