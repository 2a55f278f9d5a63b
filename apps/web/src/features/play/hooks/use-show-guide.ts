import { useState } from 'react';

const KEY = 'showGuide';

/**
 * The play tutorial shows once: until it is closed, localStorage `showGuide` is not 'false'. `show`
 * opens it again (the play screen's help button).
 */
export function useShowGuide(): [boolean, () => void, () => void] {
  const [open, setOpen] = useState(() => {
    try {
      return window.localStorage.getItem(KEY) !== 'false';
    } catch {
      return false;
    }
  });
  const close = () => {
    setOpen(false);
    try {
      window.localStorage.setItem(KEY, 'false');
    } catch {
      // storage unavailable: it shows again next time
    }
  };
  return [open, close, () => setOpen(true)];
}
