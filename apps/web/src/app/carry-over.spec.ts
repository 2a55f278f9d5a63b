import { afterEach, describe, expect, it, vi } from 'vitest';
import { carryOver } from './carry-over';

// The app's sign-in form just rendered in #root, as React leaves it: fields that report typing.
function appForm() {
  document.body.innerHTML = `<div id="root"><div role="tablist"><button role="tab" data-testid="login-tab-phone">Phone</button></div>
    <form><input data-testid="login-username-input"><input data-testid="login-password-input" type="password"><button type="submit">Go</button></form></div>`;
  const typed: string[] = [];
  document.querySelectorAll('input').forEach((input) => input.addEventListener('input', () => typed.push(`${input.dataset.testid}=${input.value}`)));
  return typed;
}

describe('what was done on the sign-in page rendered at build time', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    vi.useRealTimers();
  });

  it('is carried over to the app: the text as typing sets it, the focus and caret, nothing submitted unasked', () => {
    const typed = appForm();
    const submitted = vi.fn((e: Event) => e.preventDefault());
    document.querySelector('form')!.addEventListener('submit', submitted);
    carryOver({ values: { 'login-username-input': 'mara', 'login-password-input': 'secret1', gone: 'x' }, focus: 'login-password-input', tab: null, submit: false });
    expect(typed).toEqual(['login-username-input=mara', 'login-password-input=secret1']);
    const focused = document.activeElement as HTMLInputElement;
    expect(focused.dataset.testid).toBe('login-password-input');
    expect(focused.selectionStart).toBe('secret1'.length);
    expect(submitted).not.toHaveBeenCalled();
  });

  it('submits again once the form has its values, or presses the tab that was pressed instead', async () => {
    vi.useFakeTimers();
    appForm();
    const submitted = vi.fn((e: Event) => e.preventDefault());
    document.querySelector('form')!.addEventListener('submit', submitted);
    carryOver({ values: { 'login-username-input': 'mara' }, focus: null, tab: null, submit: true });
    expect(submitted).not.toHaveBeenCalled();
    await vi.runAllTimersAsync();
    expect(submitted).toHaveBeenCalledTimes(1);

    appForm();
    const tab = vi.fn();
    document.querySelector('[role="tab"]')!.addEventListener('click', tab);
    carryOver({ values: {}, focus: null, tab: 'login-tab-phone', submit: true });
    await vi.runAllTimersAsync();
    expect(tab).toHaveBeenCalledTimes(1);
  });

  it('is taken once, from what the first script left on the page', () => {
    const typed = appForm();
    (window as unknown as { __TL_CARRY_OVER__?: unknown }).__TL_CARRY_OVER__ = { values: { 'login-username-input': 'mara' }, focus: null, tab: null, submit: false };
    carryOver();
    carryOver();
    expect(typed).toEqual(['login-username-input=mara']);
  });
});
