let rest: Promise<void> | undefined;

/**
 * Ant Design's styles beyond the first screen's (build/antd-styles.ts), loaded once; resolves when they
 * apply. The sheet is put before every other style sheet of the page, where the first one is (at the top
 * of index.css): the app's own rules, written after antd's, win where both set the same thing.
 */
export function loadAntdRestStyles(): Promise<void> {
  rest ??= import('virtual:antd-rest.css').then(() => {
    const sheet = document.querySelector('link[rel="stylesheet"][href*="antd-rest"]');
    const first = document.querySelector('link[rel="stylesheet"]');
    if (sheet && first && sheet !== first) document.head.insertBefore(sheet, first);
  });
  return rest;
}
