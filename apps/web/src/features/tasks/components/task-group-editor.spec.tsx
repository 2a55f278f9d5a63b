import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TASK_TARGETS_MAX, TASK_TARGETS_MIN, type TaskGroup, type TaskTarget } from '@taleloom/contracts';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { jsonResponse, mockFetch } from '../../../test/render-app';
import { TaskGroupEditor } from './task-group-editor';

const storyId = 'd'.repeat(24);
const target = (id: string, title: string, completed = false): TaskTarget => ({
  id, title, type: 'reality', score: 2, completed, complete_turn: completed ? 1 : null, original_probability: 60,
  current_probability: completed ? 100 : 60, evidence: completed ? 'Mara: I find the key.' : '', reason: '',
});
const groupOf = (targets: TaskTarget[]): TaskGroup => ({
  global_tasks_id: 'g1', tasks_id: 1, series_name: 'Harbour secrets', main_character: 'Mara', score: 0, tasks_created_at_turn: 0,
  tasks_scored_at_turn: null, preceding_task_groups: [], subsequent_task_groups: [], targets,
});

function renderEditor(group: TaskGroup) {
  const puts: Record<string, unknown>[] = [];
  mockFetch((url, init) => {
    if (init.method === 'PUT' && url === `/api/tasks/${storyId}/1`) {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      puts.push(body);
      return jsonResponse({ status: 'success', message: 'ok', data: { story_id: storyId, tasks_list: [group], rev: 2 } });
    }
    return jsonResponse({ status: 'error', code: 'ROUTE_NOT_FOUND', message: url }, 404);
  });
  const onDone = vi.fn();
  render(
    <AppProviders queryClient={createQueryClient()}>
      <TaskGroupEditor storyId={storyId} group={group} onDone={onDone} />
    </AppProviders>,
  );
  return { puts, onDone };
}

const rows = () => screen.getAllByTestId('edit-target');
const removeButtons = () => screen.getAllByTestId('edit-remove-target');
const addButton = () => screen.getByTestId('edit-add-target');

describe('the task group editor', () => {
  it('keeps 1 to 4 targets: "add" is disabled at 4, "remove" at 1', async () => {
    expect([TASK_TARGETS_MIN, TASK_TARGETS_MAX]).toEqual([1, 4]);
    const { puts, onDone } = renderEditor(groupOf([target('t1', 'Find the key')]));
    expect(screen.getByText('A group has 1 to 4 tasks.')).toBeInTheDocument();
    // One target: it cannot be removed.
    expect(rows()).toHaveLength(1);
    expect(removeButtons()[0]).toBeDisabled();
    fireEvent.click(removeButtons()[0]);
    expect(rows()).toHaveLength(1);

    // Up to four: each new one is blank; at four "add" is disabled and a click adds nothing.
    for (const count of [2, 3, 4]) {
      expect(addButton()).toBeEnabled();
      fireEvent.click(addButton());
      expect(rows()).toHaveLength(count);
      expect((screen.getAllByTestId('edit-target-title').at(-1) as HTMLTextAreaElement).value).toBe('');
    }
    expect(addButton()).toBeDisabled();
    fireEvent.click(addButton());
    expect(rows()).toHaveLength(4);
    for (const button of removeButtons()) expect(button).toBeEnabled();

    // Removing one enables "add" again; back at one, "remove" is disabled again.
    fireEvent.click(removeButtons()[3]);
    expect(rows()).toHaveLength(3);
    expect(addButton()).toBeEnabled();
    fireEvent.click(removeButtons()[2]);
    fireEvent.click(removeButtons()[1]);
    expect(rows()).toHaveLength(1);
    expect(removeButtons()[0]).toBeDisabled();
    expect((screen.getByTestId('edit-target-title') as HTMLTextAreaElement).value).toBe('Find the key');

    // What is saved is what is shown.
    await act(async () => fireEvent.click(screen.getByTestId('edit-save')));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(puts).toHaveLength(1);
    expect((puts[0].targets as TaskTarget[]).map((x) => [x.id, x.title])).toEqual([['t1', 'Find the key']]);
  });

  it('a completed target can be neither removed nor changed, however many targets there are', () => {
    renderEditor(groupOf([target('t1', 'Find the key', true), target('t2', 'Earn trust')]));
    expect(rows()).toHaveLength(2);
    expect(removeButtons().map((b) => (b as HTMLButtonElement).disabled)).toEqual([true, false]);
    expect(screen.getAllByTestId('edit-target-title').map((t) => (t as HTMLTextAreaElement).disabled)).toEqual([true, false]);
    expect(rows()[0]).toHaveTextContent('Completed: cannot be changed');
    fireEvent.click(addButton());
    expect(removeButtons().map((b) => (b as HTMLButtonElement).disabled)).toEqual([true, false, false]);
  });
});
