import { useCallback, useEffect, useRef, type RefObject } from 'react';

// Within this many pixels of the page's end, the reader counts as "at the newest text".
const AT_END_PX = 48;

const pageEnd = () => document.documentElement.scrollHeight;
const gapToEnd = () => pageEnd() - (window.scrollY + window.innerHeight);

/**
 * Keeps the newest text in view on /play: whenever `target` (the story text with the turn card) grows,
 * the page scrolls to its end, where the sticky input sits just below the newest line and the turn's
 * actions. A reader who scrolls up to read stops the following until they come back down or send again
 * (`follow()`). Opening the page lands on the newest text.
 */
export function useFollowNewest(target: RefObject<HTMLElement | null>, active: boolean): () => void {
  const following = useRef(true);

  useEffect(() => {
    // Only the reader scrolling up stops the following: the page's own scrolls go down, and text that
    // grows between one of them and its scroll event (several chunks in a busy frame) must not count
    // as the reader leaving the end.
    // Not read here: reading a scroll position lays the whole page out, and a long story is much to lay
    // out while it is being put on screen. The first scroll event starts from where it is.
    let lastY: number | null = null;
    const onScroll = () => {
      const y = window.scrollY;
      if (gapToEnd() <= AT_END_PX) following.current = true;
      else if (lastY !== null && y < lastY) following.current = false;
      lastY = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    const el = target.current;
    if (!el || !active || typeof ResizeObserver === 'undefined') return;
    let height = 0;
    const observer = new ResizeObserver(() => {
      const next = el.getBoundingClientRect().height;
      // Only growth follows (new text, the turn's buttons, a picture): a shrinking block is not news.
      if (next > height && following.current) window.scrollTo({ top: pageEnd() });
      height = next;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [target, active]);

  return useCallback(() => {
    following.current = true;
    window.scrollTo({ top: pageEnd() });
  }, []);
}
