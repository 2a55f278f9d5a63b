import { useCallback, useEffect, useRef, type RefObject } from 'react';

// Within this many pixels of the page's end, the reader counts as "at the newest text".
const AT_END_PX = 48;
// A finger moved this far down the screen (the page scrolls up) is the reader leaving the end.
const TOUCH_UP_PX = 8;
const UP_KEYS = new Set(['PageUp', 'ArrowUp', 'Home']);
const DOWN_KEYS = new Set(['PageDown', 'ArrowDown', 'End', ' ']);

const pageEnd = () => document.documentElement.scrollHeight;
const gapToEnd = () => pageEnd() - (window.scrollY + window.innerHeight);

// A key that scrolls the page (not one typed into a field).
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * Keeps the newest text in view on /play: whenever `target` (the story text with the turn card) grows,
 * the page scrolls to its end, where the sticky input sits just below the newest line and the turn's
 * actions. Only the reader scrolling up on purpose (a wheel, a finger, a key, the scroll bar) stops the
 * following, until they come back down to the end themselves or send again (`follow()`). The page's own
 * changes never stop it, nor start it again: the input box shrinking after a send, a turn card replaced
 * by its saved text, a picture loading, all move the scroll position without the reader having asked.
 * A page that shrinks below a reader who scrolled up (a picture's placeholder giving way to the picture)
 * brings them to its end with a scroll event they did not make; taken for "back at the end", it would
 * let the picture's growth right after pull them down. So only a scroll that follows the reader's own
 * move down (wheel, finger, key, scroll bar) resumes the following at the end.
 */
export function useFollowNewest(target: RefObject<HTMLElement | null>, active: boolean): () => void {
  const following = useRef(true);

  useEffect(() => {
    // The reader moved down since they left the end: reaching it now is their doing.
    let down = false;
    const leave = () => {
      following.current = false;
      down = false;
    };
    // After the reader's own scroll: back at the end, the following resumes.
    const onScroll = () => {
      if (down && gapToEnd() <= AT_END_PX) following.current = true;
    };
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY < 0) leave();
      else if (e.deltaY > 0) down = true;
    };
    let touchY: number | null = null;
    const onTouchStart = (e: TouchEvent) => {
      touchY = e.touches[0]?.clientY ?? null;
    };
    const onTouchMove = (e: TouchEvent) => {
      const y = e.touches[0]?.clientY;
      if (touchY === null || y === undefined) return;
      if (y - touchY > TOUCH_UP_PX && gapToEnd() > 0) leave();
      else if (touchY - y > TOUCH_UP_PX) down = true;
    };
    const onKey = (e: KeyboardEvent) => {
      if (typing(e.target)) return;
      if (UP_KEYS.has(e.key)) leave();
      else if (DOWN_KEYS.has(e.key)) down = true;
    };
    // The scroll bar: a press outside the page's content (on the root's bar); a drag up leaves the end.
    let barY: number | null = null;
    const onPointerDown = (e: PointerEvent) => {
      barY = e.target === document.documentElement ? window.scrollY : null;
      if (barY !== null) down = true;
    };
    const onPointerUp = () => {
      if (barY !== null && window.scrollY < barY) leave();
      barY = null;
    };
    const options = { passive: true } as const;
    window.addEventListener('scroll', onScroll, options);
    window.addEventListener('wheel', onWheel, options);
    window.addEventListener('touchstart', onTouchStart, options);
    window.addEventListener('touchmove', onTouchMove, options);
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointerDown, options);
    window.addEventListener('pointerup', onPointerUp, options);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('wheel', onWheel);
      window.removeEventListener('touchstart', onTouchStart);
      window.removeEventListener('touchmove', onTouchMove);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('pointerup', onPointerUp);
    };
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
