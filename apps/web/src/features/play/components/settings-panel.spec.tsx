import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { DEFAULT_STORY_SETTINGS, type StoryData } from '@taleloom/contracts';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { jsonResponse, mockFetch } from '../../../test/render-app';
import { SettingsPanel } from './settings-panel';

const story = (activity: string | null): StoryData => ({
  ...DEFAULT_STORY_SETTINGS,
  id: 'e'.repeat(24), storyNo: 1, userID: 'u1', name: 'The Ferry', main_text: 'Mara waits.', goal: '', role: 'Mara', user: 'u1',
  'hidden-settings': '', author: 'alice', writer: 'alice', history_table: [], note_table: [], prologue_and_characters: 'Mara waits.',
  play_mode: 'fly_free', recovery_point: false, recovery_point_id: null, author_remark: '', previous_summary: '', model_name: '',
  model_type: '', activity, activity_story_index: activity ? 1 : null, picture_character_sheet: '', permission: '0', level: 0,
  clonedFrom: null, pinToTop: false, time: 1, isOwner: true, branch_id: 'e'.repeat(24),
});

function renderPanel(activity: string | null) {
  mockFetch((url) => jsonResponse({ status: 'error', code: 'ROUTE_NOT_FOUND', message: url }, 404));
  const onSave = vi.fn();
  render(
    <AppProviders queryClient={createQueryClient()}>
      <SettingsPanel open onClose={() => undefined} story={story(activity)} onSave={onSave} disabled={false} />
    </AppProviders>,
  );
  return onSave;
}

const LOCKED = 'This is an activity story: its tasks cannot be edited, deleted or added, and its play mode stays as set.';
const modeSelect = () => screen.getByTestId('setting-play-mode').closest('.ant-select') as HTMLElement;
const openOptions = () => act(async () => fireEvent.mouseDown(within(modeSelect()).getByRole('combobox')));
const shownOptions = () => document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');

describe('the settings panel', () => {
  it('lets the owner change the play mode of an ordinary story, saved at once', async () => {
    const onSave = renderPanel(null);
    await screen.findByTestId('settings-panel');
    expect(modeSelect()).not.toHaveClass('ant-select-disabled');
    expect(screen.queryByText(LOCKED)).toBeNull();
    await openOptions();
    expect([...shownOptions()].map((o) => o.textContent).sort()).toEqual(['Free play', 'Game master', 'Guided by goals']);
    await act(async () => fireEvent.click(screen.getByTitle('Game master')));
    expect(onSave).toHaveBeenCalledWith({ play_mode: 'tasks_master' });
  });

  it('disables the play mode of an activity story (and says why); the other settings still save', async () => {
    const onSave = renderPanel('202402sf');
    await screen.findByTestId('settings-panel');
    expect(modeSelect()).toHaveClass('ant-select-disabled');
    expect(screen.getByText(LOCKED)).toBeInTheDocument();
    await openOptions();
    expect(shownOptions()).toHaveLength(0);
    expect(onSave).not.toHaveBeenCalled();
    // Only the mode is locked, not the panel.
    await act(async () => fireEvent.click(screen.getByTestId('setting-camera')));
    expect(onSave).toHaveBeenCalledWith({ settings_camera_switch: false });
    expect(onSave).not.toHaveBeenCalledWith(expect.objectContaining({ play_mode: expect.anything() }));
  });
});
