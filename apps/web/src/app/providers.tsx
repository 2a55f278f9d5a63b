import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthBootstrap } from '../features/auth/components/auth-bootstrap';
import { normalizeLanguage } from '../lib/i18n';
import { appTheme } from './theme';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: 1 },
      mutations: { retry: 0 },
    },
  });
}

interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
}

/** Query cache, Ant Design theme and locale (following i18next), antd App context, user-info bootstrap. */
export function AppProviders({ children, queryClient }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const { i18n } = useTranslation();
  const antdLocale = normalizeLanguage(i18n.language) === 'zh-CN' ? zhCN : enUS;

  return (
    <QueryClientProvider client={client}>
      <ConfigProvider locale={antdLocale} theme={appTheme}>
        <AntdApp>
          <AuthBootstrap />
          {children}
        </AntdApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
