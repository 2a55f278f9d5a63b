import { CheckOutlined, CloseCircleFilled, CloseOutlined, DownOutlined, EllipsisOutlined, LoadingOutlined, SearchOutlined } from '@ant-design/icons';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Language } from '@taleloom/contracts';
import { ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FeedbackProvider } from '../components/feedback';
import { AuthBootstrap } from '../features/auth/components/auth-bootstrap';
import { normalizeLanguage } from '../lib/i18n';
import { useReducedMotion } from '../lib/reduced-motion';
import { appTheme } from './theme';

// No space put into two-character Chinese buttons ("签到", not "签 到"); a loading button's spinner is
// decoration (antd's own icons are otherwise named in English: "loading").
const BUTTON_CONFIG = { autoInsertSpace: false, loadingIcon: <LoadingOutlined aria-hidden="true" /> };

// antd App's root element: its font and colour for the page, and the theme's CSS variables (cssVar key).
const APP_CLASS = `ant-app ${typeof appTheme.cssVar === 'object' ? appTheme.cssVar.key : ''}`.trim();

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: 1 },
      mutations: { retry: 0 },
    },
  });
}

// Ant Design's own texts (OK, Cancel, pagination...): English is antd's default (in its core already);
// Chinese is a chunk loaded before the first render (main.tsx) or on a switch. A locale is always
// given: ConfigProvider wraps its children differently without one, and the switch would remount the app.
const antdLocales: Partial<Record<Language, Locale>> = { en: enUS };

export async function loadAntdLocale(language: string): Promise<void> {
  const lang = normalizeLanguage(language);
  if (lang === 'zh-CN' && !antdLocales[lang]) antdLocales[lang] = (await import('antd/locale/zh_CN')).default;
}

interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
}

/**
 * Query cache, Ant Design theme and locale (following i18next), toasts and dialogs (useFeedback), user-info bootstrap.
 * With the system's reduced-motion setting, antd's menus, dialogs and drawers open and close without motion.
 */
export function AppProviders({ children, queryClient }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const { t, i18n } = useTranslation();
  const language = normalizeLanguage(i18n.language);
  // The icons antd draws itself carry their English names as aria-label ("search", "ellipsis", "close-circle"):
  // each is named in the page's language instead.
  const icons = useMemo(
    () => ({
      inputSearch: { searchIcon: <SearchOutlined aria-label={t('common.search')} /> },
      // A dialog's or a panel's close button has its own label ("关闭", from antd's locale or ours): the cross is decoration.
      modal: { closeIcon: <CloseOutlined aria-hidden="true" /> },
      drawer: { closeIcon: <CloseOutlined aria-hidden="true" /> },
      tabs: { moreIcon: <EllipsisOutlined aria-label={t('common.more')} /> },
      select: {
        clearIcon: <CloseCircleFilled aria-hidden="true" />,
        suffixIcon: <DownOutlined aria-hidden="true" />,
        loadingIcon: <LoadingOutlined aria-hidden="true" />,
        menuItemSelectedIcon: <CheckOutlined aria-hidden="true" />,
      },
    }),
    [t],
  );
  const [, setLoaded] = useState(0);
  useEffect(() => {
    if (antdLocales[language]) return undefined;
    // A locale that arrives after the providers are gone (a closed page, a finished test) changes nothing.
    let mounted = true;
    void loadAntdLocale(language).then(() => {
      if (mounted) setLoaded((n) => n + 1);
    });
    return () => {
      mounted = false;
    };
  }, [language]);
  const antdLocale = antdLocales[language] ?? enUS;
  const reducedMotion = useReducedMotion();
  // zeroRuntime: components take their styles from the sheet made at build time (virtual:antd.css in main.tsx).
  const theme = useMemo(() => ({ ...appTheme, zeroRuntime: true, ...(reducedMotion ? { token: { ...appTheme.token, motion: false } } : {}) }), [reducedMotion]);

  return (
    <QueryClientProvider client={client}>
      <ConfigProvider locale={antdLocale} theme={theme} button={BUTTON_CONFIG} {...icons}>
        <FeedbackProvider className={APP_CLASS}>
          <AuthBootstrap />
          {children}
        </FeedbackProvider>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
