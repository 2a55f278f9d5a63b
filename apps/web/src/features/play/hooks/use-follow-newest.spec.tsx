import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFollowNewest } from './use-follow-newest';

// jsdom lays nothing out: the page's height, the window and the scroll position are the test's, and
// the ResizeObserver is one the test triggers.
const page = { height: 3000, y: 2260, window: 740 };
let grow: () => void = () => undefined;
const target = { current: document.createElement('div') };
const scrolls = vi.fn((options: ScrollToOptions) => {
  page.y = Math.min(options.top ?? page.y, page.height - page.window);
});
const gap = () => page.height - (page.y + page.window);

// The page scrolled (by the reader or by itself, clamped to its end as a browser does): a scroll event.
function scrollTo(y: number) {
  page.y = Math.max(0, Math.min(y, page.height - page.window));
  window.dispatchEvent(new Event('scroll'));
}
// The page's height changes; one that shrinks below the window's bottom pulls the position up to its end.
function resize(height: number) {
  page.height = height;
  if (page.y > height - page.window) scrollTo(height - page.window);
}
// The watched block grows (new text, a picture) by `by` pixels at the end.
function growBy(by: number) {
  resize(page.height + by);
  blockHeight += by;
  grow();
}
let blockHeight = 1000;

describe('useFollowNewest', () => {
  beforeEach(() => {
    Object.assign(page, { height: 3000, y: 2260, window: 740 });
    blockHeight = 1000;
    scrolls.mockClear();
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, get: () => page.height });
    Object.defineProperty(window, 'scrollY', { configurable: true, get: () => page.y });
    Object.defineProperty(window, 'innerHeight', { configurable: true, get: () => page.window });
    vi.spyOn(window, 'scrollTo').mockImplementation(scrolls as unknown as typeof window.scrollTo);
    vi.spyOn(target.current, 'getBoundingClientRect').mockImplementation(() => ({ height: blockHeight }) as DOMRect);
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          grow = callback;
        }
        observe() {
          grow();
        }
        disconnect() {}
      },
    );
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('follows growth at the end, and stops when the reader wheels up', () => {
    renderHook(() => useFollowNewest(target, true));
    growBy(200);
    expect(gap()).toBe(0);
    window.dispatchEvent(new WheelEvent('wheel', { deltaY: -300 }));
    scrollTo(page.y - 300);
    growBy(200);
    expect(gap()).toBe(500);
  });

  it('is not pulled back when the page shrinks below the reader to its end and then grows (a picture replacing its placeholder)', () => {
    renderHook(() => useFollowNewest(target, true));
    scrolls.mockClear();
    window.dispatchEvent(new WheelEvent('wheel', { deltaY: -300 }));
    scrollTo(page.y - 300);
    const y = page.y;
    // The placeholder goes: the page ends 320 px sooner, the browser brings the position to the new end.
    resize(page.height - 320);
    expect(gap()).toBe(0);
    expect(page.y).toBeLessThan(y);
    // The picture comes in: the page grows, and stays where the reader is.
    growBy(350);
    expect(gap()).toBe(350);
    expect(scrolls).not.toHaveBeenCalled();
  });

  it('follows again once the reader comes back down to the end themselves, or sends', () => {
    const { result } = renderHook(() => useFollowNewest(target, true));
    window.dispatchEvent(new WheelEvent('wheel', { deltaY: -300 }));
    scrollTo(page.y - 300);
    // Down, but not yet to the end: still not following.
    window.dispatchEvent(new WheelEvent('wheel', { deltaY: 100 }));
    scrollTo(page.y + 100);
    growBy(100);
    expect(gap()).toBe(300);
    // Down to the end: following again.
    window.dispatchEvent(new WheelEvent('wheel', { deltaY: 1000 }));
    scrollTo(page.y + 1000);
    growBy(100);
    expect(gap()).toBe(0);
    // Up with a key, then a send: following again at once.
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageUp' }));
    scrollTo(page.y - 700);
    growBy(100);
    expect(gap()).toBe(800);
    result.current();
    expect(gap()).toBe(0);
    growBy(100);
    expect(gap()).toBe(0);
  });
});
