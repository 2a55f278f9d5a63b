let rest: Promise<void> | undefined;

/**
 * Loads one of Ant Design's sheets made at build time (build/antd-styles.ts) and puts it before every
 * other style sheet of the page, where the first one is (at the top of index.css): the app's own rules,
 * written after antd's, win where both set the same thing. Resolves when it applies.
 */
function loadSheet(load: () => Promise<unknown>, name: string): Promise<void> {
  return load().then(() => {
    const sheet = document.querySelector(`link[rel="stylesheet"][href*="${name}"]`);
    const first = document.querySelector('link[rel="stylesheet"]');
    if (sheet && first && sheet !== first) document.head.insertBefore(sheet, first);
  });
}

/** The components a signed-in screen shows as it opens, beyond the first sheet's: loaded with its code. */
export const antdScreenStyles = {
  stories: () => loadSheet(() => import('virtual:antd-stories.css'), 'antd-stories'),
  play: () => loadSheet(() => import('virtual:antd-play.css'), 'antd-play'),
};

/** Ant Design's styles beyond the first screen's, loaded once (again after a failure); resolves when they apply. */
export function loadAntdRestStyles(): Promise<void> {
  rest ??= loadSheet(() => import('virtual:antd-rest.css'), 'antd-rest').catch((error: unknown) => {
    rest = undefined;
    throw error;
  });
  return rest;
}

// A sheet that did not come (a dropped connection) leaves a part of the app plainer, not broken.
const stylesOrNot = () => loadAntdRestStyles().catch(() => undefined);

/** The rest of antd's styles once the page is idle: after the screen in view has been shown. */
export function loadAntdRestStylesWhenIdle(): void {
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
  idle(() => void stylesOrNot());
}

/**
 * What `load` gives, once the rest of antd's styles apply too: for the parts of the app that come after
 * the screen (dialogs, drawers, menus), which may show any component.
 */
export function withRestStyles<T>(load: Promise<T>): Promise<T> {
  return Promise.all([load, stylesOrNot()]).then(([loaded]) => loaded);
}
