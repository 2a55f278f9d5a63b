import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { ShareDialog } from './share-dialog';

const id = 'a'.repeat(24);

function renderDialog(storyId = id) {
  return render(
    <AppProviders queryClient={createQueryClient()}>
      <ShareDialog storyId={storyId} open onClose={() => undefined} />
    </AppProviders>,
  );
}

function clipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
}

describe('the share dialog', () => {
  afterEach(() => vi.useRealTimers());

  it('copies the link, shows "Copied" for 1 second, and draws the QR code 200 wide', async () => {
    const written: string[] = [];
    clipboard(async (text) => {
      written.push(text);
    });
    renderDialog();
    expect((await screen.findByTestId('share-link', {}, { timeout: 5000 })) as HTMLInputElement).toHaveValue(`${window.location.origin}/play?id=${id}`);
    const qr = screen.getByTestId('share-qr');
    expect(qr.querySelector('svg')).toHaveAttribute('width', '200');
    vi.useFakeTimers();
    await act(async () => fireEvent.click(screen.getByTestId('share-copy')));
    expect(written).toEqual([`${window.location.origin}/play?id=${id}`]);
    expect(screen.getByTestId('share-copy')).toHaveTextContent('Copied');
    await act(async () => vi.advanceTimersByTime(999));
    expect(screen.getByTestId('share-copy')).toHaveTextContent('Copied');
    await act(async () => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('share-copy')).toHaveTextContent('Copy');
  });

  it('says "Copy failed" when the clipboard refuses (spec, error catalogue)', async () => {
    clipboard(() => Promise.reject(new Error('denied')));
    renderDialog();
    await act(async () => fireEvent.click(await screen.findByTestId('share-copy', {}, { timeout: 5000 })));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(screen.getByTestId('share-copy')).toHaveTextContent('Copy');
  });

  it('says "QR code generation failed" in place of the code when the link cannot be encoded, in both languages', async () => {
    // Longer than the largest QR version holds: the encoder throws while drawing.
    const tooLong = 'a'.repeat(5000);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { i18n } = await import('../../../lib/i18n');
    for (const [lang, text] of [
      ['en', 'QR code generation failed'],
      ['zh-CN', '二维码生成失败'],
    ] as const) {
      await i18n.changeLanguage(lang);
      const { unmount } = renderDialog(tooLong);
      expect(await screen.findByTestId('share-qr-failed', {}, { timeout: 5000 })).toHaveTextContent(text);
      expect(screen.queryByTestId('share-qr')).toBeNull();
      expect(screen.getByTestId('share-link')).toHaveValue(`${window.location.origin}/play?id=${tooLong}`);
      unmount();
    }
  });
});
