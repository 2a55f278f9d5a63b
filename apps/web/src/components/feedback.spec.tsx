import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders, createQueryClient } from '../app/providers';
import { useFeedback } from './feedback';

function Asker() {
  const { message, modal } = useFeedback();
  return (
    <>
      <button type="button" onClick={() => message.success('Saved it')}>
        toast
      </button>
      <button type="button" onClick={() => modal.confirm({ title: 'Really delete?', content: 'It goes for good.' })}>
        ask
      </button>
    </>
  );
}

describe('useFeedback', () => {
  it('shows a toast and a confirmation asked for before their code has come, inside the app root element', async () => {
    const { container } = render(
      <AppProviders queryClient={createQueryClient()}>
        <Asker />
      </AppProviders>,
    );
    // antd App's root element, with the theme's class (its CSS variables apply to the whole page).
    expect(container.firstElementChild?.className).toBe('ant-app tl');
    await act(async () => {
      fireEvent.click(screen.getByText('toast'));
      fireEvent.click(screen.getByText('ask'));
    });
    expect(await screen.findByText('Saved it')).toBeInTheDocument();
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Really delete?');
    expect(dialog).toHaveTextContent('It goes for good.');
  });

  it('needs its provider', () => {
    const spy = () => render(<Asker />);
    expect(spy).toThrow('useFeedback needs a FeedbackProvider');
  });
});
