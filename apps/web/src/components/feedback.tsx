import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

type MessageKind = 'success' | 'error' | 'info' | 'warning' | 'loading';
type ModalKind = 'confirm' | 'info' | 'success' | 'error' | 'warning';

/** The toasts and confirmation dialogs of antd's App (`App.useApp()`), without its code on the first screen. */
export interface Feedback {
  message: { [K in MessageKind]: (...args: Parameters<MessageInstance[K]>) => void };
  modal: { [K in ModalKind]: (...args: Parameters<ModalHookAPI[K]>) => void };
}

/** antd's own hook APIs, once their holders are mounted (feedback-holders.tsx). */
export interface FeedbackApis {
  message: MessageInstance;
  modal: ModalHookAPI;
}

const FeedbackContext = createContext<Feedback | null>(null);

const FeedbackHolders = lazy(() => import('./feedback-holders').then((m) => ({ default: m.FeedbackHolders })));

const MESSAGE_KINDS: MessageKind[] = ['success', 'error', 'info', 'warning', 'loading'];
const MODAL_KINDS: ModalKind[] = ['confirm', 'info', 'success', 'error', 'warning'];

/**
 * What antd's `App` gives (its root element with the theme's class, the message and modal APIs), with
 * the message and modal code in a chunk of its own: mounted at the user's first input or at the first
 * call, whichever comes first; calls made before it has come wait for it. Inside the ConfigProvider, so the
 * toasts and dialogs take the theme and the locale.
 */
export function FeedbackProvider({ children, className }: { children: ReactNode; className: string }) {
  const apis = useRef<FeedbackApis | null>(null);
  const waiting = useRef<((apis: FeedbackApis) => void)[]>([]);
  const [wanted, setWanted] = useState(false);

  const feedback = useMemo<Feedback>(() => {
    const run = (call: (apis: FeedbackApis) => void) => {
      if (apis.current) call(apis.current);
      else {
        waiting.current.push(call);
        setWanted(true);
      }
    };
    const message = Object.fromEntries(
      MESSAGE_KINDS.map((kind) => [kind, (...args: Parameters<MessageInstance[MessageKind]>) => run((a) => void a.message[kind](...args))]),
    ) as Feedback['message'];
    const modal = Object.fromEntries(
      MODAL_KINDS.map((kind) => [kind, (...args: Parameters<ModalHookAPI[ModalKind]>) => run((a) => void a.modal[kind](...args))]),
    ) as Feedback['modal'];
    return { message, modal };
  }, []);

  // Not in the way of the first screen (its chunks and reads share a phone's slow network): fetched at
  // the user's first touch, click or key, which comes before what they do asks for a toast or a dialog.
  useEffect(() => {
    const want = () => setWanted(true);
    const events = ['pointerdown', 'keydown'] as const;
    for (const event of events) window.addEventListener(event, want, { capture: true, once: true, passive: true });
    return () => {
      for (const event of events) window.removeEventListener(event, want, { capture: true });
    };
  }, []);

  const ready = useCallback((ready: FeedbackApis) => {
    apis.current = ready;
    for (const call of waiting.current.splice(0)) call(ready);
  }, []);

  return (
    <FeedbackContext.Provider value={feedback}>
      <div className={className}>
        {wanted ? (
          <Suspense fallback={null}>
            <FeedbackHolders onReady={ready} />
          </Suspense>
        ) : null}
        {children}
      </div>
    </FeedbackContext.Provider>
  );
}

/** The message and modal APIs (in place of antd's `App.useApp()`). */
export function useFeedback(): Feedback {
  const feedback = useContext(FeedbackContext);
  if (!feedback) throw new Error('useFeedback needs a FeedbackProvider (app/providers.tsx)');
  return feedback;
}
