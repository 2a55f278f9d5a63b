import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { EditTitleDialog } from './edit-title-dialog';

describe('the edit-title dialog', () => {
  it('keeps confirm disabled while the title is empty (or blank), and saves the trimmed title', async () => {
    const onSave = vi.fn(() => Promise.resolve());
    render(
      <AppProviders queryClient={createQueryClient()}>
        <EditTitleDialog open name="The Dragon" onClose={() => undefined} onSave={onSave} />
      </AppProviders>,
    );
    const input = await screen.findByTestId('title-input');
    expect(screen.getByTestId('title-confirm')).toBeEnabled();
    fireEvent.change(input, { target: { value: '' } });
    expect(screen.getByTestId('title-confirm')).toBeDisabled();
    fireEvent.change(input, { target: { value: '   ' } });
    expect(screen.getByTestId('title-confirm')).toBeDisabled();
    fireEvent.change(input, { target: { value: '  Rain  ' } });
    expect(screen.getByTestId('title-confirm')).toBeEnabled();
    await act(async () => fireEvent.click(screen.getByTestId('title-confirm')));
    expect(onSave).toHaveBeenCalledWith('Rain');
  });
});
