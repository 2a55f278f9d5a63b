import type { StoryListItem } from '@taleloom/contracts';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../../lib/error-message';
import { useCloneStory } from '../api/clone-story';
import { needsCloneBeforePlay, type StoryTab } from '../utils/story-format';

/** The start button: go to /play; from my list a story with a restore point is cloned first. */
export function useStartStory(tab: StoryTab) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const clone = useCloneStory();
  const [startingId, setStartingId] = useState<string | null>(null);

  const start = (story: StoryListItem) => {
    if (tab !== 'mine' || !needsCloneBeforePlay(story)) {
      navigate(`/play?id=${encodeURIComponent(story.id)}`);
      return;
    }
    setStartingId(story.id);
    clone.mutate(story.id, {
      onSuccess: ({ id }) => navigate(`/play?id=${encodeURIComponent(id)}`),
      onError: (error) => void message.error(getErrorMessage(error, t)),
      onSettled: () => setStartingId(null),
    });
  };
  return { start, startingId };
}
