import { EditOutlined } from '@ant-design/icons';
import { customModelNameKey, type CustomModelView, type StoryData, type UpdateStoryDto } from '@taleloom/contracts';
import { App, Button, Typography } from 'antd';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { isNotEnoughPower, requestGetPower } from '../../../lib/get-power';
import { usePictures } from '../api/get-pictures';
import { useDrawPicture } from '../api/request-picture';
import { useFollowNewest } from '../hooks/use-follow-newest';
import { useShowGuide } from '../hooks/use-show-guide';
import { useTurn } from '../hooks/use-turn';
import { useWindowHeight } from '../hooks/use-window-height';
import { CUSTOM_MODEL_TYPE, type ModelChoice } from '../model-choice';
import { EditTitleDialog } from './edit-title-dialog';
import { PlayInput } from './play-input';
import { PlayToolbar } from './play-toolbar';
import { PlayTutorial } from './play-tutorial';
import { SettingsPanel } from './settings-panel';
import { StoryNotes } from './story-notes';
import { StoryPictureFigure } from './story-picture';
import { StoryText } from './story-text';
import { TurnCard } from './turn-card';
import '../play.css';

type Patch = Omit<UpdateStoryDto, 'language'>;

export interface PlayScreenProps {
  story: StoryData;
  title: string;
  /** PATCH /api/llm?id: answers the updated story (the caller keeps its cache). */
  onSave: (patch: Patch) => Promise<StoryData>;
  /** Local changes the server already made (an accepted turn, a folded summary). */
  onLocalChange: (change: Partial<StoryData>) => void;
  publishMenu: ReactNode;
  /** The archive (record) and export controls, when those features are there. */
  recordButton?: ReactNode;
  exportMenu?: ReactNode;
  taskButton?: ReactNode;
  /** The user's own models for the model selector (undefined while loading), and the dialog that manages them. */
  customModels?: CustomModelView[];
  onManageModels?: () => void;
}

// The toolbar hides on very short windows (a phone in landscape with the keyboard open).
const TOOLBAR_MIN_HEIGHT = 400;

// Text fields the screen reads, filled in when an older or partial record lacks them.
function withTextDefaults(story: StoryData): StoryData {
  const fields = ['name', 'main_text', 'role', 'author_remark', 'previous_summary', 'model_name', 'model_type', 'picture_character_sheet'] as const;
  const filled = { ...story };
  for (const f of fields) if (typeof filled[f] !== 'string') (filled as Record<string, unknown>)[f] = '';
  return filled;
}

/** The play screen (spec section 2): write a line, watch the continuation stream in, shape it. */
export function PlayScreen(props: PlayScreenProps) {
  const { title, onSave, onLocalChange, publishMenu, recordButton, exportMenu, taskButton, customModels, onManageModels } = props;
  const story = useMemo(() => withTextDefaults(props.story), [props.story]);
  const { t } = useTranslation();
  const { message } = App.useApp();
  const height = useWindowHeight();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [savingText, setSavingText] = useState(false);
  const [titleOpen, setTitleOpen] = useState(false);
  const [guideOpen, closeGuide] = useShowGuide();
  const [role, setRole] = useState(story.role);
  const [text, setText] = useState('');
  const [usedRoles, setUsedRoles] = useState<string[]>([]);
  const [summaryFlash, setSummaryFlash] = useState(false);
  // The model choice follows the story's record (a rename or delete in the dialog changes it there).
  const storyChoice: ModelChoice = { type: story.model_type, name: story.model_name };
  const [choice, setChoice] = useState(storyChoice);
  const [synced, setSynced] = useState(storyChoice);
  if (synced.type !== storyChoice.type || synced.name !== storyChoice.name) {
    setSynced(storyChoice);
    setChoice(storyChoice);
  }
  // A custom model that no longer exists plays as the platform default (the server does the same).
  const gone =
    choice.type === CUSTOM_MODEL_TYPE &&
    customModels !== undefined &&
    !customModels.some((m) => customModelNameKey(m.model_name) === customModelNameKey(choice.name));
  const model: ModelChoice = gone ? { type: '', name: '' } : choice;

  const showError = (error: unknown) => {
    void message.error(getErrorMessage(error, t));
    // Not enough power: offer the ways to get some at once.
    if (isNotEnoughPower(error)) requestGetPower();
  };
  const save = (patch: Patch) => onSave(patch).catch((error: unknown) => {
    showError(error);
    throw error;
  });

  const pictures = usePictures(story.id);
  const draw = useDrawPicture(story.id);
  const drawing = draw.isPending ? draw.variables : null;
  const generator = pictures.data?.generator;
  const canDraw = story.isOwner !== false && story.settings_camera_switch && Boolean(generator?.available);
  const drawPicture = (target: Parameters<typeof draw.mutate>[0]) =>
    draw.mutate(target, {
      onSuccess: () => void message.info(t('play.pictures.requested')),
      onError: showError,
    });

  const turn = useTurn(story.id, model, {
    onAppended: (appended) => {
      onLocalChange({ main_text: story.main_text + appended });
      // The saved passage's picture is on its way: show it pending at once.
      void pictures.refetch();
    },
    onSummary: (summary) => {
      onLocalChange({ previous_summary: summary });
      setSummaryFlash(true);
      void message.info(t('play.summaryFolded'));
    },
    onError: showError,
  });
  const generating = turn.view.phase === 'generating' || turn.view.phase === 'loading';
  const locked = generating || editing;
  // The newest text stays in view above the sticky input (not while the text is being edited).
  const textBlock = useRef<HTMLDivElement>(null);
  const followNewest = useFollowNewest(textBlock, !editing);

  const roles = useMemo(() => {
    const all = [story.role, ...usedRoles].map((r) => r.trim()).filter(Boolean);
    return [...new Set(all)];
  }, [story.role, usedRoles]);

  const send = async () => {
    if (locked) return;
    const line = text;
    if (role.trim()) setUsedRoles((r) => [...r, role.trim()]);
    setText('');
    followNewest();
    const started = await turn.send(role, line);
    // Refused (too fast, no power...): the line goes back into the box.
    if (!started) setText((current) => current || line);
  };

  const onUndo = async () => {
    const restored = await turn.undo();
    if (restored) {
      setRole(restored.role);
      setText(restored.input);
    }
  };

  const changeModel = (next: ModelChoice) => {
    const before = choice;
    setChoice(next);
    onSave({ model_name: next.name, model_type: next.type }).catch((error: unknown) => {
      void message.error(t('customModels.switchFailed', { reason: getErrorMessage(error, t) }));
      setChoice(before);
    });
  };

  const charCount = useMemo(() => [...story.main_text].length, [story.main_text]);

  return (
    <div className={`tl-play ${settingsOpen ? 'tl-play--settings' : ''}`} data-testid="play-screen">
      {height > TOOLBAR_MIN_HEIGHT ? (
        <PlayToolbar
          settingsOpen={settingsOpen}
          onToggleSettings={() => setSettingsOpen((o) => !o)}
          onEdit={() => setEditing(true)}
          locked={locked}
          charCount={charCount}
          model={model}
          onModelChange={changeModel}
          customModels={customModels}
          onManageModels={onManageModels}
          publishMenu={publishMenu}
          recordButton={recordButton}
          exportMenu={exportMenu}
          taskButton={taskButton}
        />
      ) : null}
      <div className="tl-play__title-row">
        <Typography.Title level={3} className="tl-play__title" data-testid="play-title">
          {title}
        </Typography.Title>
        <Button type="text" size="small" icon={<EditOutlined aria-hidden="true" />} aria-label={t('play.editTitle')} onClick={() => setTitleOpen(true)} data-testid="title-edit" />
      </div>
      <StoryNotes
        authorRemark={story.author_remark}
        previousSummary={story.previous_summary}
        summaryFlash={summaryFlash}
        disabled={generating}
        onSave={(field, value) => save({ [field]: value })}
      />
      <StoryText
        text={story.main_text}
        pictures={pictures.data?.pictures}
        onIllustrate={canDraw && !locked ? (range) => drawPicture({ range }) : undefined}
        renderPicture={(picture) => (
          <StoryPictureFigure
            picture={picture}
            onRedraw={canDraw ? () => drawPicture({ pictureId: picture.id }) : undefined}
            busy={Boolean(drawing && 'pictureId' in drawing && drawing.pictureId === picture.id)}
          />
        )}
        blockRef={textBlock}
        editing={editing}
        saving={savingText}
        onBack={() => setEditing(false)}
        onConfirm={async (next) => {
          setSavingText(true);
          try {
            await save({ main_text: next });
            setEditing(false);
            void message.success(t('play.textSaved'));
          } catch {
            // shown by save()
          } finally {
            setSavingText(false);
          }
        }}
      >
        {editing ? null : (
          <TurnCard
            view={turn.view}
            waiting={turn.waiting}
            actions={{
              onUndo: () => void onUndo(),
              onRegenerate: () => {
                followNewest();
                void turn.regenerate();
              },
              onSave: () => void turn.accept(),
              onContinue: () => {
                followNewest();
                void turn.continueStory();
              },
              onEditAi: turn.setAiText,
            }}
          />
        )}
      </StoryText>
      <PlayInput
        role={role}
        roles={roles}
        onRoleChange={setRole}
        text={text}
        onTextChange={setText}
        onSend={() => void send()}
        disabled={locked}
        generating={generating || turn.waiting}
        waiting={turn.waiting}
      />
      <SettingsPanel open={settingsOpen} onClose={() => setSettingsOpen(false)} story={story} onSave={(p) => void save(p)} disabled={generating} pictures={generator} />
      <PlayTutorial open={guideOpen} onClose={closeGuide} />
      <EditTitleDialog open={titleOpen} name={story.name} onClose={() => setTitleOpen(false)} onSave={(name) => save({ name })} />
    </div>
  );
}
