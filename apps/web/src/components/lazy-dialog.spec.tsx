import { render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyDialog } from './lazy-dialog';

describe('lazyDialog', () => {
  it('loads nothing until the first opening, then stays mounted (its state kept) when closed and reopened', async () => {
    const mounts = vi.fn();
    function Panel({ open, title }: { open: boolean; title: string }) {
      useEffect(() => mounts(), []);
      return <div data-testid="panel" data-open={String(open)}>{title}</div>;
    }
    const load = vi.fn(() => Promise.resolve(Panel));
    const LazyPanel = lazyDialog(load);

    const view = render(<LazyPanel open={false} title="Settings" />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByTestId('panel')).toBeNull();

    view.rerender(<LazyPanel open title="Settings" />);
    expect(await screen.findByTestId('panel')).toHaveAttribute('data-open', 'true');
    expect(load).toHaveBeenCalledTimes(1);

    view.rerender(<LazyPanel open={false} title="Settings" />);
    expect(screen.getByTestId('panel')).toHaveAttribute('data-open', 'false');
    view.rerender(<LazyPanel open title="Settings" />);
    expect(screen.getByTestId('panel')).toHaveAttribute('data-open', 'true');
    expect(mounts).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads at once when rendered open (the guide a first visit opens by itself)', async () => {
    const LazyPanel = lazyDialog(() => Promise.resolve(({ open }: { open: boolean }) => <div data-testid="guide">{String(open)}</div>));
    render(<LazyPanel open />);
    expect(await screen.findByTestId('guide')).toHaveTextContent('true');
  });
});
