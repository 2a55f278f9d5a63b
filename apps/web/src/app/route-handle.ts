/** Route metadata: the breadcrumb item and page title of a screen. */
export interface RouteHandle {
  titleKey: 'nav.login' | 'nav.stories' | 'nav.play' | 'nav.create' | 'nav.activity' | 'nav.notFound';
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'titleKey' in value;
}
