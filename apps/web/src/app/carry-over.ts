/**
 * What the visitor did on the sign-in page rendered at build time before the app rendered over it, as the
 * page's first script kept it (build/first-screen-boot.js): each field's text by its test id, the field
 * in focus, the tab pressed, and whether they submitted (held back until now).
 */
export interface KeptInput {
  values: Record<string, string>;
  focus: string | null;
  tab: string | null;
  submit: boolean;
}

type WithKept = Window & { __TL_CARRY_OVER__?: KeptInput };

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const isField = (el: Element | null): el is Field => el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;

/**
 * Carries it over to the app's sign-in screen, just rendered: the same text in the same fields (set as
 * typing sets it, so the form's state follows), the focus and caret back, the tab pressed; a submit is
 * made again once the form has its values. Once: the first script stops keeping when the app has rendered.
 */
export function carryOver(kept: KeptInput | undefined = (window as WithKept).__TL_CARRY_OVER__): void {
  delete (window as WithKept).__TL_CARRY_OVER__;
  if (!kept) return;
  const find = (id: string) => document.querySelector(`#root [data-testid="${CSS.escape(id)}"]`);
  let form: HTMLFormElement | null = null;
  for (const [id, value] of Object.entries(kept.values)) {
    const field = find(id);
    if (!isField(field)) continue;
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value);
    field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    form ??= field.form;
  }
  const focused = kept.focus ? find(kept.focus) : null;
  if (focused instanceof HTMLElement) {
    focused.focus();
    if (focused instanceof HTMLInputElement || focused instanceof HTMLTextAreaElement) {
      try {
        focused.setSelectionRange(focused.value.length, focused.value.length);
      } catch {
        // A field without a caret (a number field): the focus is enough.
      }
    }
  }
  if (kept.tab) (find(kept.tab) as HTMLElement | null)?.click();
  // After the form has taken the values (their change events are handled as they are dispatched).
  else if (kept.submit) setTimeout(() => (form ?? document.querySelector<HTMLFormElement>('#root form'))?.requestSubmit());
}
