import type { StoryData, StoryPicture } from '@taleloom/contracts';
import { useTranslation } from 'react-i18next';
import { usePictures } from '../api/get-pictures';
import { useDrawPicture } from '../api/request-picture';
import { StoryPictureFigure } from '../components/story-picture';
import { useFeedback } from '../../../components/feedback';

type OnError = (error: unknown) => void;

/**
 * A story's pictures for a screen that shows its text (the play screen, composed in app/routes):
 * the pictures and what the server draws with, whether the user may ask for one, asking for one,
 * each picture's figure (with its redraw), and fetching them again (after an accepted turn).
 */
export function useStoryPictures(story: Pick<StoryData, 'id' | 'isOwner' | 'settings_camera_switch'>) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const pictures = usePictures(story.id);
  const draw = useDrawPicture(story.id);
  const drawing = draw.isPending ? draw.variables : null;
  const generator = pictures.data?.generator;
  const canDraw = story.isOwner !== false && story.settings_camera_switch && Boolean(generator?.available);
  const drawPicture = (target: Parameters<typeof draw.mutate>[0], onError: OnError) =>
    draw.mutate(target, {
      onSuccess: () => void message.info(t('play.pictures.requested')),
      onError,
    });
  return {
    pictures: pictures.data?.pictures,
    generator,
    canDraw,
    illustrate: (range: { from: number; to: number }, onError: OnError) => drawPicture({ range }, onError),
    renderPicture: (picture: StoryPicture, onError: OnError) => (
      <StoryPictureFigure
        picture={picture}
        onRedraw={canDraw ? () => drawPicture({ pictureId: picture.id }, onError) : undefined}
        busy={Boolean(drawing && 'pictureId' in drawing && drawing.pictureId === picture.id)}
      />
    ),
    refresh: () => void pictures.refetch(),
  };
}
