import { ApiOutlined, EyeOutlined, FlagOutlined, GiftFilled } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../../components/logo';
import { TypewriterText } from '../../../components/typewriter-text';

const TYPE_DELAY_MS = 80;
const HOLD_DELAY_MS = 1500;

/** The login page's left side: brand, typewriter slogans, daily check-in banner and three highlights. */
export function LoginHero() {
  const { t, i18n } = useTranslation();
  const slogans = [t('login.slogan1'), t('login.slogan2'), t('login.slogan3'), t('login.slogan4')];
  const features: { icon: ReactNode; title: string; body: string }[] = [
    { icon: <ApiOutlined aria-hidden="true" />, title: t('login.feature1Title'), body: t('login.feature1Body') },
    { icon: <EyeOutlined aria-hidden="true" />, title: t('login.feature2Title'), body: t('login.feature2Body') },
    { icon: <FlagOutlined aria-hidden="true" />, title: t('login.feature3Title'), body: t('login.feature3Body') },
  ];

  return (
    <section className="tl-hero" data-testid="login-hero">
      <div className="tl-hero__brand">
        <Logo size={44} />
        <span className="tl-hero__brand-name">{t('app.brand')}</span>
      </div>
      <h1 className="tl-hero__title">{t('login.heroTitle')}</h1>
      <TypewriterText
        key={i18n.language}
        className="tl-typewriter"
        texts={slogans}
        typeDelay={TYPE_DELAY_MS}
        holdDelay={HOLD_DELAY_MS}
      />
      <div className="tl-hero__checkin" data-testid="login-checkin-banner">
        <GiftFilled aria-hidden="true" />
        <span>{t('login.checkIn')}</span>
      </div>
      <ul className="tl-hero__features" aria-label={t('login.featuresLabel')}>
        {features.map((feature) => (
          <li key={feature.title} className="tl-hero__feature">
            <span className="tl-hero__feature-icon" aria-hidden="true">
              {feature.icon}
            </span>
            <div>
              <h2 className="tl-hero__feature-title">{feature.title}</h2>
              <p className="tl-hero__feature-body">{feature.body}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
