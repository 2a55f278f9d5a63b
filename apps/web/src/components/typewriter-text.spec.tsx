import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TypewriterText } from './typewriter-text';

describe('TypewriterText', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const typed = (container: HTMLElement) => container.querySelector('[aria-hidden="true"]')!.textContent;
  // One timer at a time: each step schedules the next after React commits.
  const advance = (ms: number, steps = 1) => {
    for (let i = 0; i < steps; i += 1) act(() => vi.advanceTimersByTime(ms));
  };

  it('types 80 ms per character, holds 1.5 s, then starts the next text', () => {
    const { container } = render(<TypewriterText texts={['故事好', 'ab']} typeDelay={80} holdDelay={1500} />);
    expect(typed(container)).toBe('');
    advance(80);
    expect(typed(container)).toBe('故');
    advance(80, 2);
    expect(typed(container)).toBe('故事好');
    advance(1499);
    expect(typed(container)).toBe('故事好');
    advance(1);
    expect(typed(container)).toBe('');
    advance(80, 2);
    expect(typed(container)).toBe('ab');
    // The full text is always there for screen readers.
    expect(container.querySelector('.tl-sr-only')!.textContent).toBe('ab');
  });
});
