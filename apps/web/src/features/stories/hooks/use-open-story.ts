import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isApiClientError } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/error-message';
import { checkStory } from '../api/check-story';
import { useClonePublicStory } from '../api/clone-public-story';
import { CLONE_REDIRECT_DELAY_MS, decideOpen } from '../utils/story-format';
import { useFeedback } from '../../../components/feedback';

export type OpenPhase = 'checking' | 'ready' | 'cloning' | 'cloned' | 'refused';

/**
 * Opening /play?id= (spec section 4): my story loads; someone else's public story is cloned and the
 * user goes to the clone after 1 s; otherwise an error shows and the user goes back to /stories.
 */
export function useOpenStory(id: string | null): OpenPhase {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const clone = useClonePublicStory();
  const [phase, setPhase] = useState<OpenPhase>('checking');
  // One decision per id, even when React runs effects twice.
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const key = id ?? '';
    if (handled.current === key) return;
    handled.current = key;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refuse = (error?: unknown) => {
      setPhase('refused');
      void message.error(error ? getErrorMessage(error, t) : t('errors.STORY_NOT_FOUND'));
      navigate('/stories', { replace: true });
    };
    setPhase('checking');
    const run = async () => {
      if (!id) return refuse();
      let check = null;
      try {
        check = await checkStory(id);
      } catch (error) {
        // A 401 has already sent the user to /login.
        if (isApiClientError(error) && error.status === 401) return;
        return refuse(error);
      }
      const decision = decideOpen(id, check);
      if (decision.kind === 'load') return setPhase('ready');
      if (decision.kind === 'refuse') return refuse();
      setPhase('cloning');
      try {
        const { id: cloneId } = await clone.mutateAsync({ userID: decision.userID, storyID: decision.storyID });
        setPhase('cloned');
        void message.success(t('play.cloned'));
        timer = setTimeout(() => navigate(`/play?id=${encodeURIComponent(cloneId)}`, { replace: true }), CLONE_REDIRECT_DELAY_MS);
      } catch (error) {
        if (isApiClientError(error) && error.status === 401) return;
        void message.error(t('play.cloneFailed'));
        refuse(error);
      }
    };
    void run();
    return () => clearTimeout(timer);
    // The decision depends on the id only; the helpers are stable enough and must not re-run it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  return phase;
}
