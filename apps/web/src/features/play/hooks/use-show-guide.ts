import { useState } from 'react';

const KEY = 'showGuide';

/** The play tutorial shows once: until it is closed, localStorage `showGuide` is not 'false'. */
export function useShowGuide(): [boolean, () => void] {
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
  return [open, close];
}
