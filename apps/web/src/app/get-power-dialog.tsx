import { lazy, Suspense } from 'react';
import { lazyDialog } from '../components/lazy-dialog';

// Its code, and the publish picker's in it, load when it first opens: rendered closed with /stories, it
// cost that screen's first render on a phone about 170 ms (4x slower CPU, a profile).
const PowerDialog = lazyDialog(() => import('../features/power/components/power-dialog').then((m) => m.PowerDialog));
const PublishPicker = lazy(() => import('../features/stories/components/publish-picker').then((m) => ({ default: m.PublishPicker })));

/** "Get power" with its publish button (the stories feature's picker), for /stories and any screen (app-layout). */
export function GetPowerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <PowerDialog
      open={open}
      onClose={onClose}
      publishButton={
        <Suspense fallback={null}>
          <PublishPicker />
        </Suspense>
      }
    />
  );
}
