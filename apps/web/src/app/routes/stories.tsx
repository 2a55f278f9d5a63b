import { StoriesScreen } from '../../features/stories/components/stories-screen';
import './screens.css';

export function StoriesRoute() {
  return <StoriesScreen />;
}
