import { useCallback, useEffect, useState } from 'react';
import { useCheckInStatusQuery } from '../api/get-check-in-status';

/** localStorage key: when the user last closed the power dialog (epoch ms). */
export const POWER_DIALOG_CLOSED_AT_KEY = 'powerDialogClosedAt';
/** The dialog does not open by itself again within this long after being closed (spec section 9). */
export const POWER_DIALOG_REOPEN_GAP_MS = 8 * 60 * 60 * 1000;

function readClosedAt(): number | null {
  try {
    const raw = window.localStorage.getItem(POWER_DIALOG_CLOSED_AT_KEY);
    const value = raw === null ? NaN : Number(raw);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

function writeClosedAt(at: number): void {
  try {
    window.localStorage.setItem(POWER_DIALOG_CLOSED_AT_KEY, String(at));
  } catch {
    // Without storage the dialog simply opens again next time.
  }
}

/** True when the daily dialog should open by itself: not checked in today, not closed in the last 8 hours. */
export function shouldAutoOpen(checkedIn: boolean, closedAt: number | null, now: number): boolean {
  if (checkedIn) return false;
  return closedAt === null || now - closedAt >= POWER_DIALOG_REOPEN_GAP_MS || closedAt > now;
}

/** The power dialog's open state, opening it once by itself when the user has not checked in today. */
export function useDailyPowerDialog() {
  const [open, setOpen] = useState(false);
  const [decided, setDecided] = useState(false);
  const status = useCheckInStatusQuery();
  const checkedIn = status.data?.dailyCheckinStatus;

  useEffect(() => {
    if (decided || checkedIn === undefined) return;
    setDecided(true);
    if (shouldAutoOpen(checkedIn, readClosedAt(), Date.now())) setOpen(true);
  }, [checkedIn, decided]);

  const show = useCallback(() => setOpen(true), []);
  const close = useCallback(() => {
    writeClosedAt(Date.now());
    setOpen(false);
  }, []);
  return { open, show, close };
}
