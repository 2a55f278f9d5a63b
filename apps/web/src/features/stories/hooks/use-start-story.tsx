import type { StoryListItem } from '@taleloom/contracts';
import { App, Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../../lib/error-message';
import { useCloneStory } from '../api/clone-story';
import { needsCloneBeforePlay, type StoryTab } from '../utils/story-format';

/** The start button: go to /play; from my list a story with a restore point is cloned first. */
export function useStartStory(tab: StoryTab) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const clone = useCloneStory();
  const [startingId, setStartingId] = useState<string | null>(null);

  const play = (id: string) => navigate(`/play?id=${encodeURIComponent(id)}`);
  const playCopy = (story: StoryListItem) => {
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

  const start = (story: StoryListItem) => {
    if (tab !== 'mine' || !needsCloneBeforePlay(story)) return play(story.id);
    // A story restored from a save: playing on a copy keeps the restored state as it is. Never
    // silently: the player chooses (the copy is the default, Escape does nothing).
    const dialog = modal.confirm({
      title: t('stories.restored.title'),
      content: t('stories.restored.body'),
      okText: t('stories.restored.copy'),
      okButtonProps: { 'data-testid': 'restored-copy' } as ButtonProps,
      cancelText: t('common.cancel'),
      closable: true,
      mask: { closable: true },
      onOk: () => playCopy(story),
      footer: (_, { OkBtn, CancelBtn }) => (
        <>
          <CancelBtn />
          <Button
            onClick={() => {
              dialog.destroy();
              play(story.id);
            }}
            data-testid="restored-open"
          >
            {t('stories.restored.open')}
          </Button>
          <OkBtn />
        </>
      ),
    });
  };
  return { start, startingId };
}
