import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Logo } from './logo';
import './top-bar.css';

interface TopBarProps {
  /** The current screen's breadcrumb item, after the brand. */
  current?: string;
  /** Buttons and menus on the right. */
  actions?: ReactNode;
}

/** The bar on every screen: brand breadcrumb on the left, actions on the right. */
export function TopBar({ current, actions }: TopBarProps) {
  const { t } = useTranslation();
  return (
    <header className="tl-topbar" data-testid="top-bar">
      <nav className="tl-topbar__nav" aria-label={t('nav.breadcrumb')}>
        {/* A two-item breadcrumb, plain (antd's Breadcrumb brings a dropdown menu to every first screen). */}
        <ol className="tl-topbar__crumbs">
          <li>
            <Link to="/stories" className="tl-topbar__brand" aria-label={t('nav.home')} data-testid="brand-link">
              <Logo size={28} />
              <span className="tl-topbar__brand-name">{t('app.brand')}</span>
            </Link>
          </li>
          {current ? (
            <>
              <li className="tl-topbar__separator" aria-hidden="true">
                /
              </li>
              <li className="tl-topbar__crumb">
                <span className="tl-topbar__current" aria-current="page">
                  {current}
                </span>
              </li>
            </>
          ) : null}
        </ol>
      </nav>
      <div className="tl-topbar__actions">{actions}</div>
    </header>
  );
}
