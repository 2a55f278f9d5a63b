import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { antdComponentsOf, antdComponentsUsed } from '../../build/antd-styles';

// vitest runs from apps/web.
const src = join(process.cwd(), 'src');
const menus = [`${src}/features/auth/components/user-menu.tsx`, `${src}/components/language-dropdown.tsx`];

// The antd sheets of /stories and /play (vite.config.ts): what the screen shows as it opens, not what its
// dialogs, drawers and the other screens show (those wait for the rest of antd's styles).
describe("a signed-in screen's antd sheet", () => {
  it('/stories: its tabs, cards and the top bar menus; not the dialogs or the other screens', () => {
    const names = antdComponentsOf([`${src}/app/routes/stories.tsx`, ...menus]);
    expect(names).toEqual(expect.arrayContaining(['Tabs', 'Card', 'Input', 'Dropdown', 'Avatar', 'Empty', 'Tooltip']));
    for (const other of ['Table', 'Drawer', 'Form', 'Upload', 'Steps']) expect(names).not.toContain(other);
  });

  it('/play: its role picker, panels and the top bar menus; not the settings or lore drawers', () => {
    const names = antdComponentsOf([`${src}/app/routes/play.tsx`, ...menus]);
    expect(names).toEqual(expect.arrayContaining(['AutoComplete', 'Select', 'Collapse', 'Input', 'Dropdown', 'Skeleton']));
    for (const other of ['Drawer', 'Table', 'Form', 'Upload', 'Tabs']) expect(names).not.toContain(other);
  });

  it('names only components the app uses', () => {
    const used = antdComponentsUsed(src);
    for (const screen of ['stories', 'play']) {
      for (const name of antdComponentsOf([`${src}/app/routes/${screen}.tsx`, ...menus])) expect(used).toContain(name);
    }
  });
});
