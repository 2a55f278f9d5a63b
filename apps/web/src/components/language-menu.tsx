import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { SUPPORTED_LANGUAGES, type Language } from '@taleloom/contracts';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, normalizeLanguage } from '../lib/i18n';

/** Language switcher: the choice is kept in localStorage `lang`; the label collapses to an icon on phones. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = normalizeLanguage(i18n.language);

  const items: MenuProps['items'] = SUPPORTED_LANGUAGES.map((lang: Language) => ({
    key: lang,
    label: <span data-testid={`language-option-${lang}`}>{t(`language.${lang}`)}</span>,
    lang,
    extra: lang === current ? <CheckOutlined aria-hidden="true" /> : undefined,
  }));

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items,
        selectable: true,
        selectedKeys: [current],
        onClick: ({ key }) => {
          void changeLanguage(key as Language);
        },
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined aria-hidden="true" />}
        data-testid="language-menu-trigger"
        aria-label={t('topBar.changeLanguage', { language: t(`language.${current}`) })}
        title={t('topBar.language')}
        className="tl-topbar__button"
      >
        <span className="tl-topbar__label">{t(`language.${current}`)}</span>
      </Button>
    </Dropdown>
  );
}
