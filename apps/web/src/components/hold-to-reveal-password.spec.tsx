import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HoldToRevealPassword } from './hold-to-reveal-password';

describe('HoldToRevealPassword', () => {
  it('shows the password only while the pointer is held down on the eye', () => {
    render(<HoldToRevealPassword revealLabel="Hold to show" data-testid="pw" defaultValue="secret1" />);
    const input = screen.getByTestId('pw');
    const eye = screen.getByRole('button', { name: 'Hold to show' });
    expect(input).toHaveAttribute('type', 'password');

    fireEvent.pointerDown(eye);
    expect(input).toHaveAttribute('type', 'text');
    expect(eye).toHaveAttribute('aria-pressed', 'true');

    fireEvent.pointerUp(eye);
    expect(input).toHaveAttribute('type', 'password');

    fireEvent.pointerDown(eye);
    expect(input).toHaveAttribute('type', 'text');
    fireEvent.pointerLeave(eye);
    expect(input).toHaveAttribute('type', 'password');
  });

  it('does not toggle on a plain click', () => {
    render(<HoldToRevealPassword revealLabel="Hold to show" data-testid="pw" />);
    fireEvent.click(screen.getByRole('button', { name: 'Hold to show' }));
    expect(screen.getByTestId('pw')).toHaveAttribute('type', 'password');
  });
});
