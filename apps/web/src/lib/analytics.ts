import type { AnalyticsEventName } from '@taleloom/contracts';
import { apiClient } from './api-client';

/** Fires a first-party analytics event; never fails the caller. */
export function track(name: AnalyticsEventName, extra: { method?: string } = {}): void {
  const path = typeof window === 'undefined' ? undefined : window.location.pathname;
  void apiClient.post('/analytics/events', { name, path, ...extra }).catch(() => undefined);
}
