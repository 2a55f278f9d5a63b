import { lazy, Suspense } from 'react';
import { lazyDialog } from '../components/lazy-dialog';

// Its code, and the publish picker's in it, load when it first opens: rendered closed with /stories, it
// cost that screen's first render on a phone about 170 ms (4x slower CPU, a profile). The picker's code
// loads beside the dialog's, so its button comes with the dialog rather than a moment after it.
const loadPicker = () => import('../features/stories/components/publish-picker');
const PowerDialog = lazyDialog(() =>
  Promise.all([import('../features/power/components/power-dialog'), loadPicker()]).then(([dialog]) => dialog.PowerDialog),
);
const PublishPicker = lazy(() => loadPicker().then((m) => ({ default: m.PublishPicker })));

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
