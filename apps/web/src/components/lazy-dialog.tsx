import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog or panel (a component with `open`) whose code loads when it is first opened, not with the
 * screen: nothing is rendered until then, and from then on it stays mounted (it keeps its state and
 * plays its closing animation, as it would mounted from the start).
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazy(() => load().then((component) => ({ default: component })));
  function LazyDialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    // Derived during render (React's "storing information from previous renders"): the first `open`.
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return LazyDialog;
}
