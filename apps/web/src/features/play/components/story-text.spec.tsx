import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { StoryText } from './story-text';

// 2,000 lines of 40 characters: 80,000 characters, more than the 30,000 the screen shows.
const lines = Array.from({ length: 2000 }, (_, i) => `Line ${String(i).padStart(4, '0')}: the tide comes in..`);
const long = lines.join('\n');

function renderEditor(text: string, onConfirm = vi.fn()) {
  const view = (t: string) => (
    <AppProviders queryClient={createQueryClient()}>
      <StoryText text={t} editing saving={false} onConfirm={onConfirm} onBack={() => undefined} />
    </AppProviders>
  );
  const result = render(view(text));
  return { onConfirm, rerender: (t: string) => result.rerender(view(t)) };
}

const editor = () => screen.getByTestId('edit-textarea') as HTMLTextAreaElement;
const type = (value: string) => act(async () => fireEvent.change(editor(), { target: { value } }));

describe('editing prior text', () => {
  it('edits the part the screen shows, widens on demand, and saves the whole text', async () => {
    const { onConfirm } = renderEditor(long);
    expect(editor().value.length).toBeLessThanOrEqual(30_000);
    expect(long.endsWith(editor().value)).toBe(true);
    // It opens on a whole line.
    expect(editor().value).toMatch(/^Line \d{4}: /);
    await type(editor().value.replace('Line 1999', 'Last line'));
    await act(async () => fireEvent.click(screen.getByTestId('edit-earlier')));
    // The earlier text comes in front of the draft, which keeps the change.
    expect(editor().value.startsWith('Line 0000')).toBe(true);
    expect(screen.queryByTestId('edit-earlier')).toBeNull();
    await type(editor().value.replace('Line 0000', 'First line'));
    await act(async () => fireEvent.click(screen.getByTestId('edit-confirm')));
    expect(onConfirm).toHaveBeenCalledWith(long.replace('Line 1999', 'Last line').replace('Line 0000', 'First line'));
  });

  it('saves the shown part with the rest of the text in front of it', async () => {
    const { onConfirm } = renderEditor(long);
    await type(`${editor().value}\nThe end.`);
    await act(async () => fireEvent.click(screen.getByTestId('edit-confirm')));
    expect(onConfirm).toHaveBeenCalledWith(`${long}\nThe end.`);
  });

  it('carries the change onto a text read again meanwhile (a passage accepted elsewhere), once', async () => {
    const { onConfirm, rerender } = renderEditor(long);
    await type(editor().value.replace('Line 1990', 'Line 1990 (changed)'));
    rerender(`${long}\nA passage from another device.`);
    expect(editor().value).toContain('Line 1990 (changed)');
    expect(editor().value.endsWith('\nA passage from another device.')).toBe(true);
    await act(async () => fireEvent.click(screen.getByTestId('edit-confirm')));
    const saved = `${long.replace('Line 1990', 'Line 1990 (changed)')}\nA passage from another device.`;
    expect(onConfirm).toHaveBeenCalledWith(saved);
    // The saved text coming back (this client's own save) changes nothing in the editor.
    rerender(saved);
    expect(editor().value.match(/\(changed\)/g)).toHaveLength(1);
  });
});
