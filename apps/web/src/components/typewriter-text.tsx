import { useEffect, useState } from 'react';
import { prefersReducedMotion } from '../lib/reduced-motion';

interface TypewriterTextProps {
  texts: readonly string[];
  /** Milliseconds per character. */
  typeDelay?: number;
  /** Milliseconds a finished text stays before the next one starts. */
  holdDelay?: number;
  className?: string;
}

/** Types each text character by character, holds it, then moves on to the next, forever. */
export function TypewriterText({ texts, typeDelay = 80, holdDelay = 1500, className }: TypewriterTextProps) {
  const [index, setIndex] = useState(0);
  const [length, setLength] = useState(0);
  const [reduced] = useState(prefersReducedMotion);

  const current = texts.length ? texts[index % texts.length] : '';
  // Array.from splits by code point, so CJK and emoji never break in half.
  const chars = Array.from(current);
  const shown = reduced ? chars.length : Math.min(length, chars.length);

  useEffect(() => {
    if (!texts.length) return undefined;
    const done = shown >= chars.length;
    const timer = window.setTimeout(
      () => {
        if (done) {
          setIndex((value) => (value + 1) % texts.length);
          setLength(0);
        } else {
          setLength(shown + 1);
        }
      },
      done ? holdDelay + (reduced ? typeDelay * chars.length : 0) : typeDelay,
    );
    return () => window.clearTimeout(timer);
  }, [texts.length, shown, chars.length, typeDelay, holdDelay, reduced]);

  return (
    <p className={className}>
      <span className="tl-sr-only">{current}</span>
      <span aria-hidden="true">
        {chars.slice(0, shown).join('')}
        <span className="tl-typewriter__caret" />
      </span>
    </p>
  );
}
