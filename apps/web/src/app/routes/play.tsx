import { useSearchParams } from 'react-router-dom';
import { ArchiveButton } from '../../features/archives/components/archive-button';
import { ExportMenu } from '../../features/files/components/export-menu';
import { StoryPreview } from '../../features/stories/components/story-preview';
import './screens.css';

// The full play screen comes with the play issue; until then /play opens the story and shows it.
export function PlayRoute() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  // Export and archive sit beside publish until the play screen's toolbar takes them.
  return (
    <StoryPreview
      key={id ?? ''}
      id={id}
      renderActions={(story) => (
        <>
          <ExportMenu content={story.main_text} name={story.name} />
          {story.isOwner ? <ArchiveButton storyId={story.id} /> : null}
        </>
      )}
    />
  );
}
