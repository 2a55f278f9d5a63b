import { Drawer, Grid, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ContextInspector } from './context-inspector';
import { LorePanel } from './lore-panel';
import './lore.css';

export interface LoreDrawerProps {
  storyId: string;
  open: boolean;
  onClose: () => void;
}

/** Lore entries and the context inspector, side by side as tabs (full width on a phone). */
export function LoreDrawer({ storyId, open, onClose }: LoreDrawerProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'entries' | 'context'>('entries');
  const screens = Grid.useBreakpoint();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('lore.title')}
      placement="right"
      size={screens.sm === false ? '100%' : 640}
      closable={{ 'aria-label': t('common.close') }}
      className="tl-lore-drawer"
      data-testid="lore-drawer"
      destroyOnHidden={false}
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as 'entries' | 'context')}
        items={[
          { key: 'entries', label: t('lore.tabs.entries'), children: <LorePanel storyId={storyId} /> },
          {
            key: 'context',
            label: <span data-testid="lore-tab-context">{t('lore.tabs.context')}</span>,
            // Mounted only while shown: every showing reads the latest prompt.
            children: open && tab === 'context' ? <ContextInspector storyId={storyId} /> : null,
          },
        ]}
      />
    </Drawer>
  );
}
