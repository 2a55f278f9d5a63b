import { ReloadOutlined, SafetyOutlined } from '@ant-design/icons';
import { CAPTCHA_REFRESH_SECONDS, type CaptchaChallenge } from '@taleloom/contracts';
import { Button, Input, Space, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../components/feedback';

interface CaptchaFieldProps {
  challenge: CaptchaChallenge | undefined;
  loading: boolean;
  onRefresh: () => void;
  value?: string;
  onChange?: (value: string) => void;
}

/** The human check before a code is sent: the self-hosted image, or Cloudflare Turnstile's widget. */
export function CaptchaField({ challenge, loading, onRefresh, value, onChange }: CaptchaFieldProps) {
  const { t } = useTranslation();
  if (challenge?.provider === 'turnstile' && challenge.siteKey) {
    return <TurnstileWidget siteKey={challenge.siteKey} onToken={(token) => onChange?.(token)} />;
  }
  // The image is the server's SVG, shown as an image (never injected as markup).
  const src = challenge?.svg ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(challenge.svg)}` : undefined;
  return (
    <Space.Compact block>
      <Input
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        prefix={<SafetyOutlined aria-hidden="true" />}
        placeholder={t('phone.captchaPlaceholder')}
        autoComplete="off"
        maxLength={8}
        data-testid="captcha-input"
      />
      <Button
        className="tl-captcha__image"
        onClick={onRefresh}
        aria-label={t('phone.captchaRefresh')}
        title={t('phone.captchaRefresh')}
        data-testid="captcha-image"
      >
        {loading && !src ? <Spin size="small" /> : src ? <img src={src} alt={t('phone.captchaAlt')} /> : <ReloadOutlined />}
      </Button>
    </Space.Compact>
  );
}

interface TurnstileApi {
  render: (el: HTMLElement, opts: { sitekey: string; callback: (token: string) => void; 'expired-callback': () => void }) => string;
  reset: (id: string) => void;
  remove: (id: string) => void;
}

const SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

function loadTurnstile(): Promise<TurnstileApi> {
  const w = window as unknown as { turnstile?: TurnstileApi };
  if (w.turnstile) return Promise.resolve(w.turnstile);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT;
    script.async = true;
    script.onload = () => (w.turnstile ? resolve(w.turnstile) : reject(new Error('turnstile missing')));
    script.onerror = () => reject(new Error('turnstile failed to load'));
    document.head.appendChild(script);
  });
}

/** Cloudflare Turnstile, reset every 60 s so the token is always fresh; a script that fails to load says so. */
function TurnstileWidget({ siteKey, onToken }: { siteKey: string; onToken: (token: string) => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const failedRef = useRef(() => void message.error({ key: 'captcha', content: t('phone.captchaFailed') }));
  const ref = useRef<HTMLDivElement>(null);
  const tokenRef = useRef(onToken);
  useEffect(() => {
    tokenRef.current = onToken;
    failedRef.current = () => void message.error({ key: 'captcha', content: t('phone.captchaFailed') });
  }, [onToken, message, t]);
  useEffect(() => {
    let id: string | null = null;
    let api: TurnstileApi | null = null;
    let timer: number | undefined;
    let cancelled = false;
    loadTurnstile()
      .then((loaded) => {
        if (cancelled || !ref.current) return;
        api = loaded;
        id = loaded.render(ref.current, {
          sitekey: siteKey,
          callback: (token) => tokenRef.current(token),
          'expired-callback': () => tokenRef.current(''),
        });
        timer = window.setInterval(() => id && api?.reset(id), CAPTCHA_REFRESH_SECONDS * 1000);
      })
      .catch(() => {
        if (!cancelled) failedRef.current();
      });
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      if (id) api?.remove(id);
    };
  }, [siteKey]);
  return <div ref={ref} data-testid="captcha-turnstile" />;
}
