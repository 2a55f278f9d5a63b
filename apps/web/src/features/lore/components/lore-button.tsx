import { BookOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The drawer's code loads when it is first opened, not with the play screen.
const LoreDrawer = lazy(() => import('./lore-drawer').then((m) => ({ default: m.LoreDrawer })));

/** The play toolbar's lore entry: the story's lore entries and the context inspector, in a drawer. */
export function LoreButton({ storyId }: { storyId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        icon={<BookOutlined aria-hidden="true" />}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        data-testid="toolbar-lore"
      >
        <span className="tl-play-toolbar__label">{t('lore.button')}</span>
      </Button>
      {opened ? (
        <Suspense fallback={null}>
          <LoreDrawer storyId={storyId} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
