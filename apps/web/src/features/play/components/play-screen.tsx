import { EditOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import {
  charCount,
  CUSTOM_MODEL_TYPE,
  customModelNameKey,
  mainTextEdit,
  type CustomModelView,
  type ModelChoice,
  type PictureGeneratorInfo,
  type StoryChangeData,
  type StoryData,
  type StoryPicture,
  type UpdateStoryDto,
} from '@taleloom/contracts';
import { Button, ConfigProvider, Typography } from 'antd';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getErrorMessage } from '../../../lib/error-message';
import { isNotEnoughPower, requestGetPower } from '../../../lib/get-power';
import { useFollowNewest } from '../hooks/use-follow-newest';
import { useShowGuide } from '../hooks/use-show-guide';
import { useTurn } from '../hooks/use-turn';
import { ReconnectingNote } from './reconnecting-note';
import { useWindowHeight } from '../hooks/use-window-height';
import { PlayInput } from './play-input';
import { PlayToolbar } from './play-toolbar';
import { StoryNotes } from './story-notes';
import { StoryText } from './story-text';
import { TurnCard } from './turn-card';
import '../play.css';
import { useFeedback } from '../../../components/feedback';
import { lazyDialog } from '../../../components/lazy-dialog';

// The panels the screen opens on demand: their code (the settings' form, the guide's steps) loads at the first opening.
const SettingsPanel = lazyDialog(() => import('./settings-panel').then((m) => m.SettingsPanel));
const PlayTutorial = lazyDialog(() => import('./play-tutorial').then((m) => m.PlayTutorial));
const EditTitleDialog = lazyDialog(() => import('./edit-title-dialog').then((m) => m.EditTitleDialog));

type Patch = Omit<UpdateStoryDto, 'language'>;

/**
 * What saving an edited text sends: the one change from the text shown (a million-character story
 * edited in one place is a few bytes, not megabytes, on a phone's upload), or the whole text when the
 * change is nearly all of it.
 */
export function textChange(before: string, after: string): Patch {
  const edit = mainTextEdit(before, after);
  return edit.removed.length + edit.inserted.length < after.length ? { main_text_edit: edit } : { main_text: after };
}

/** The story's pictures (the pictures feature's useStoryPictures, composed in by the route). */
export interface PlayPictures {
  pictures: StoryPicture[] | undefined;
  /** What the server draws with (the settings panel shows it). */
  generator: PictureGeneratorInfo | undefined;
  /** Whether the user may ask for a picture of a passage. */
  canDraw: boolean;
  illustrate(range: { from: number; to: number }, onError: (error: unknown) => void): void;
  /** A picture beside its passage. */
  renderPicture(picture: StoryPicture, onError: (error: unknown) => void): ReactNode;
  /** Fetches them again (an accepted turn's picture is on its way). */
  refresh(): void;
}

/** What the model selector (the models feature's, composed in by the route) gets from the screen. */
export interface ModelSelectorSlot {
  choice: ModelChoice;
  onChange: (choice: ModelChoice) => void;
  disabled: boolean;
}

export interface PlayScreenProps {
  story: StoryData;
  title: string;
  /** PATCH /api/llm?id: answers the updated story without its text (the caller keeps its cache). */
  onSave: (patch: Patch) => Promise<StoryChangeData>;
  /** Local changes the server already made (an accepted turn, a folded summary). */
  onLocalChange: (change: Partial<StoryData>) => void;
  publishMenu: ReactNode;
  /** The archive (record) and export controls, when those features are there. */
  recordButton?: ReactNode;
  exportMenu?: ReactNode;
  taskButton?: ReactNode;
  /** The lore entry in the toolbar (the lore feature's, composed in by the route). */
  loreButton?: ReactNode;
  /** The story's branches: the toolbar's list button (`locked` while generating or editing), and "branch from here" on a passage (at: the end of that passage). */
  branchesButton?: (locked: boolean) => ReactNode;
  onBranchFrom?: (at: number) => void;
  /** The user's own models (undefined while loading): a chosen one that is gone plays as the default. */
  customModels?: CustomModelView[];
  /** The model selector in the toolbar. */
  renderModelSelector?: (slot: ModelSelectorSlot) => ReactNode;
  pictures?: PlayPictures;
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
  const { title, onSave, onLocalChange, publishMenu, recordButton, exportMenu, taskButton, loreButton, branchesButton, onBranchFrom, customModels, renderModelSelector, pictures } = props;
  const story = useMemo(() => withTextDefaults(props.story), [props.story]);
  const { t } = useTranslation();
  const { message } = useFeedback();
  const height = useWindowHeight();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [savingText, setSavingText] = useState(false);
  const [titleOpen, setTitleOpen] = useState(false);
  const [guideOpen, closeGuide, showGuide] = useShowGuide();
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
  // The text and its summary are the played branch's: the server refuses them if another device
  // switched branches meanwhile (BRANCH_CHANGED) instead of writing them onto that branch.
  const ofText = (patch: Patch) => patch.main_text !== undefined || patch.main_text_edit !== undefined || patch.previous_summary !== undefined;
  const save = (patch: Patch) => onSave(ofText(patch) ? { ...patch, branch_id: story.branch_id } : patch).catch((error: unknown) => {
    showError(error);
    throw error;
  });

  const turn = useTurn(story.id, model, {
    onAppended: (appended) => {
      if (appended) onLocalChange({ main_text: story.main_text + appended });
      // The saved passage's picture is on its way: show it pending (asked again when a send that
      // accepted the turn ends, by when the server has surely asked for the picture).
      pictures?.refresh();
    },
    onSummary: (summary) => {
      onLocalChange({ previous_summary: summary });
      setSummaryFlash(true);
      void message.info(t('play.summaryFolded'));
    },
    onError: showError,
  });
  const generating = turn.view.phase === 'generating' || turn.view.phase === 'loading';
  // Spec (play screen): other buttons are disabled while generating or editing. The input stays open
  // while the pending turn is edited (a send accepts the edit first), not while the text is.
  const [turnEditing, setTurnEditing] = useState(false);
  const locked = generating || editing;
  const busy = locked || turnEditing;
  // The newest text stays in view above the sticky input (not while the text is being edited): the
  // screen is watched whole, so the turn's actions docking into the input bar count too.
  const screenBlock = useRef<HTMLDivElement>(null);
  const followNewest = useFollowNewest(screenBlock, !editing);
  // The turn's actions float just above the input, at every width: right under the new text while the
  // page follows it, and still in view when the reader has scrolled up or the turn is taller than the window.
  const [dock, setDock] = useState<HTMLDivElement | null>(null);

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

  const chars = useMemo(() => charCount(story.main_text), [story.main_text]);

  return (
    <div className={`tl-play ${settingsOpen ? 'tl-play--settings' : ''}`} ref={screenBlock} data-testid="play-screen">
      {/* Hidden, not unmounted, on a short window (a phone's keyboard open): what its buttons opened (the
          task dashboard, the lore drawer, a branch list) stays open with what the user was typing. */}
      {/* Every control the features put in the toolbar (archive, publish, task, lore, export, branches)
          is an antd one: the disabled context reaches them all, and the dialogs they hold. */}
      <ConfigProvider componentDisabled={busy}>
        <PlayToolbar
          hidden={height <= TOOLBAR_MIN_HEIGHT}
          settingsOpen={settingsOpen}
          onToggleSettings={() => setSettingsOpen((o) => !o)}
          onEdit={() => setEditing(true)}
          locked={busy}
          charCount={chars}
          modelSelector={renderModelSelector?.({ choice: model, onChange: changeModel, disabled: busy })}
          publishMenu={publishMenu}
          recordButton={recordButton}
          exportMenu={exportMenu}
          taskButton={taskButton}
          loreButton={loreButton}
          branchesButton={branchesButton?.(busy)}
        />
      </ConfigProvider>
      <div className="tl-play__title-row">
        <Typography.Title level={3} className="tl-play__title" data-testid="play-title">
          {title}
        </Typography.Title>
        <Button type="text" size="small" icon={<EditOutlined aria-hidden="true" />} aria-label={t('play.editTitle')} disabled={busy} onClick={() => setTitleOpen(true)} data-testid="title-edit" />
        <Button type="text" size="small" icon={<QuestionCircleOutlined aria-hidden="true" />} aria-label={t('play.guide.open')} title={t('play.guide.open')} onClick={showGuide} data-testid="tutorial-open" />
      </div>
      <StoryNotes
        authorRemark={story.author_remark}
        previousSummary={story.previous_summary}
        summaryFlash={summaryFlash}
        disabled={busy}
        onSave={(field, value) => save({ [field]: value })}
      />
      <StoryText
        text={story.main_text}
        pictures={pictures?.pictures}
        onIllustrate={pictures?.canDraw && !locked ? (range) => pictures.illustrate(range, showError) : undefined}
        onBranchFrom={onBranchFrom && !locked ? onBranchFrom : undefined}
        renderPicture={(picture) => pictures?.renderPicture(picture, showError)}
        editing={editing}
        saving={savingText}
        onBack={() => setEditing(false)}
        onConfirm={async (next) => {
          setSavingText(true);
          try {
            await save(textChange(story.main_text, next));
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
            onEditingChange={setTurnEditing}
            dock={dock}
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
              onShowTake: turn.showTake,
            }}
          />
        )}
      </StoryText>
      {turn.reconnecting ? <ReconnectingNote /> : null}
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
        dockRef={setDock}
      />
      <SettingsPanel open={settingsOpen} onClose={() => setSettingsOpen(false)} story={story} onSave={(p) => void save(p)} disabled={busy} pictures={pictures?.generator} />
      <PlayTutorial open={guideOpen} onClose={closeGuide} />
      <EditTitleDialog open={titleOpen} name={story.name} onClose={() => setTitleOpen(false)} onSave={(name) => save({ name })} />
    </div>
  );
}
