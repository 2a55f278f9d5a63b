import { useSearchParams } from 'react-router-dom';
import { StoryPreview } from '../../features/stories/components/story-preview';
import './screens.css';

// The full play screen comes with the play issue; until then /play opens the story and shows it.
export function PlayRoute() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  return <StoryPreview key={id ?? ''} id={id} />;
}
