import { CUSTOM_MODEL_TYPE, customModelNameKey, type StoryData } from '@taleloom/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Skeleton, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ArchiveButton } from '../../features/archives/components/archive-button';
import { BranchesButton } from '../../features/branches/components/branches-button';
import { useBranchFrom } from '../../features/branches/hooks/use-branch-from';
import { useCustomModels } from '../../features/custom-models/api/get-custom-models';
import { ExportMenu } from '../../features/files/components/export-menu';
import { LoreButton } from '../../features/lore/components/lore-button';
import { ModelSelector } from '../../features/models/components/model-selector';
import { useStoryPictures } from '../../features/pictures/hooks/use-story-pictures';
import { PlayScreen } from '../../features/play/components/play-screen';
import { useStory } from '../../features/stories/api/get-story';
import { storyKeys } from '../../features/stories/api/story-keys';
import { useUpdateStory } from '../../features/stories/api/update-story';
import { PublishMenu } from '../../features/stories/components/publish-menu';
import { TaskButton } from '../../features/tasks/components/task-button';
import { useOpenStory } from '../../features/stories/hooks/use-open-story';
import { formatStoryTitle } from '../../features/stories/utils/story-format';
import { getErrorMessage } from '../../lib/error-message';
import { lazyDialog } from '../../components/lazy-dialog';
import './screens.css';

// The custom models' dialog (its form and table) loads when it is first opened.
const CustomModelDialog = lazyDialog(() => import('../../features/custom-models/components/custom-model-dialog').then((m) => m.CustomModelDialog));

// /play?id=: the stories feature opens the story (own, or a clone of a public one); play plays it.
export function PlayRoute() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  return <PlayLoader key={id ?? ''} id={id} />;
}

function PlayLoader({ id }: { id: string | null }) {
  const { t } = useTranslation();
  const phase = useOpenStory(id);
  const story = useStory(id, phase === 'ready');

  if (phase === 'cloning' || phase === 'cloned') {
    return (
      <div className="tl-page" data-testid="play-cloning">
        <Spin size="large" />
        <Typography.Paragraph>{phase === 'cloned' ? t('play.cloned') : t('play.cloning')}</Typography.Paragraph>
      </div>
    );
  }
  if (phase !== 'ready' || story.isPending) return <div className="tl-page"><Skeleton active paragraph={{ rows: 8 }} /></div>;
  if (story.isError) return <div className="tl-page"><Alert type="error" showIcon title={getErrorMessage(story.error, t)} /></div>;
  return <PlayStory story={story.data} />;
}

function PlayStory({ story }: { story: StoryData }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const update = useUpdateStory(story.id);
  const customModels = useCustomModels();
  const pictures = useStoryPictures(story);
  const branchFrom = useBranchFrom(story.id, story.branch_id);
  const [modelsOpen, setModelsOpen] = useState(false);
  const setLocal = (change: Partial<StoryData>) =>
    queryClient.setQueryData<StoryData>(storyKeys.detail(story.id), (old) => (old ? { ...old, ...change } : old));
  // The server moves the stories that chose a renamed model and resets those of a deleted one: mirror that here.
  const usesModel = (name: string) => story.model_type === CUSTOM_MODEL_TYPE && customModelNameKey(story.model_name ?? '') === customModelNameKey(name);
  return (
    <>
      {/* Another branch is another text with its own pending turn: the screen starts afresh on it. */}
      <PlayScreen
        key={story.branch_id}
        story={story}
        title={formatStoryTitle(story, t('stories.untitled'))}
        onSave={(patch) => update.mutateAsync(patch)}
        onLocalChange={setLocal}
        publishMenu={<PublishMenu story={story} />}
        recordButton={<ArchiveButton storyId={story.id} />}
        exportMenu={<ExportMenu content={story.main_text} name={story.name} storyId={story.id} />}
        taskButton={
          <TaskButton
            storyId={story.id}
            playMode={story.play_mode}
            locked={Boolean(story.activity)}
            onPlayModeChange={(play_mode) => update.mutateAsync({ play_mode })}
          />
        }
        loreButton={<LoreButton storyId={story.id} />}
        branchesButton={(locked) => <BranchesButton storyId={story.id} disabled={locked} />}
        onBranchFrom={branchFrom}
        customModels={customModels.data}
        renderModelSelector={(slot) => <ModelSelector {...slot} customModels={customModels.data} onManage={() => setModelsOpen(true)} />}
        pictures={pictures}
      />
      <CustomModelDialog
        open={modelsOpen}
        onClose={() => setModelsOpen(false)}
        onRenamed={(from, to) => usesModel(from) && setLocal({ model_name: to })}
        onDeleted={(name) => usesModel(name) && setLocal({ model_name: '', model_type: '' })}
      />
    </>
  );
}
