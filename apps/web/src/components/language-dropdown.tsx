import { CheckOutlined } from '@ant-design/icons';
import { SUPPORTED_LANGUAGES, type Language } from '@taleloom/contracts';
import { Dropdown, type MenuProps } from 'antd';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, normalizeLanguage } from '../lib/i18n';

/** The language menu's dropdown (a chunk of its own, loaded on the first press of its button). */
export function LanguageDropdown({ trigger }: { trigger: ReactElement }) {
  const { t, i18n } = useTranslation();
  const current = normalizeLanguage(i18n.language);
  // It mounts because its button was pressed: open at once.
  const [open, setOpen] = useState(true);
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
      open={open}
      onOpenChange={setOpen}
      menu={{
        items,
        selectable: true,
        selectedKeys: [current],
        onClick: ({ key }) => {
          setOpen(false);
          void changeLanguage(key as Language);
        },
      }}
    >
      {trigger}
    </Dropdown>
  );
}
