import type { StoryListItem } from '@taleloom/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../../lib/error-message';
import { useCloneStory } from '../api/clone-story';
import { needsCloneBeforePlay, type StoryTab } from '../utils/story-format';
import { useFeedback } from '../../../components/feedback';

/**
 * The start button: go to /play. From my list a story with a restore point is cloned first and the
 * copy is opened (spec, "Opening a story"): the restored story stays as it was loaded.
 */
export function useStartStory(tab: StoryTab) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const clone = useCloneStory();
  const [startingId, setStartingId] = useState<string | null>(null);

  const play = (id: string) => navigate(`/play?id=${encodeURIComponent(id)}`);

  const start = (story: StoryListItem) => {
    if (tab !== 'mine' || !needsCloneBeforePlay(story)) return play(story.id);
    if (startingId) return;
    setStartingId(story.id);
    clone.mutate(story.id, {
      onSuccess: ({ id }) => {
        void message.success(t('stories.restored.copied'));
        play(id);
      },
      onError: (error) => void message.error(getErrorMessage(error, t)),
      onSettled: () => setStartingId(null),
    });
  };
  return { start, startingId };
}
