import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeLanguage } from '../lib/i18n';

const loadDropdown = () => import('./language-dropdown').then((m) => ({ default: m.LanguageDropdown }));
const LanguageDropdown = lazy(loadDropdown);

/**
 * Language switcher: the choice is kept in localStorage `lang`; the label collapses to an icon on
 * phones. The menu itself loads on the first press (or when the pointer comes near), so every first
 * screen is lighter by a dropdown.
 */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = normalizeLanguage(i18n.language);
  const [armed, setArmed] = useState(false);

  const trigger = (
    <Button
      type="text"
      icon={<GlobalOutlined aria-hidden="true" />}
      data-testid="language-menu-trigger"
      aria-label={t('topBar.changeLanguage', { language: t(`language.${current}`) })}
      aria-haspopup="menu"
      title={t('topBar.language')}
      className="tl-topbar__button"
      onPointerEnter={() => void loadDropdown()}
      onFocus={() => void loadDropdown()}
      onClick={armed ? undefined : () => setArmed(true)}
    >
      <span className="tl-topbar__label">{t(`language.${current}`)}</span>
    </Button>
  );
  if (!armed) return trigger;
  return (
    <Suspense fallback={trigger}>
      <LanguageDropdown trigger={trigger} />
    </Suspense>
  );
}
