import { act, render, screen } from '@testing-library/react';
import { ErrorCode, SCORE_DIALOG_CLOSE_MS, type TaskGroup } from '@taleloom/contracts';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../../../app/providers';
import { ApiClientError } from '../../../lib/api-client';
import { jsonResponse, mockFetch } from '../../../test/render-app';
import type { ScoreView } from '../hooks/use-task-score';
import { ScoreDialog } from './score-dialog';

const group: TaskGroup = {
  global_tasks_id: 'g1', tasks_id: 1, series_name: 'Harbour secrets', main_character: 'Mara', score: 2, tasks_created_at_turn: 0,
  tasks_scored_at_turn: 1, preceding_task_groups: [], subsequent_task_groups: [],
  targets: [
    { id: 't1', title: 'Find the key', type: 'reality', score: 2, completed: true, complete_turn: 1, original_probability: 60, current_probability: 100, evidence: 'Mara: I find the key.', reason: 'The story shows it.' },
    { id: 't2', title: 'Earn trust', type: 'emotion', score: 1, completed: false, complete_turn: null, original_probability: 70, current_probability: 40, evidence: '', reason: '' },
  ],
};
const verdicts: ScoreView['verdicts'] = [
  { index: 0, target_id: 't1', completed: true, evidence: 'Mara: I find the key.', reason: 'The story shows it.', probability: 100, unproven: false },
  { index: 1, target_id: 't2', completed: false, evidence: '', reason: 'Not yet.', probability: 40, unproven: false },
];
const success: ScoreView = { phase: 'success', verdicts, retrying: false, group, totalScore: 2, error: null };
const failure = (code: string, status = 502): ScoreView => ({
  phase: 'error', verdicts: [], retrying: false, group: null, totalScore: null, error: new ApiClientError(status, code, 'server text'),
});

// The dialog is open while its group is set; closing clears it, as the task view does.
function Harness({ view, onClose }: { view: ScoreView; onClose: () => void }) {
  const [shown, setShown] = useState<TaskGroup | null>(group);
  return (
    <ScoreDialog
      group={shown}
      view={view}
      onClose={() => {
        onClose();
        setShown(null);
      }}
    />
  );
}

function renderDialog(view: ScoreView) {
  const onClose = vi.fn();
  render(
    <AppProviders queryClient={createQueryClient()}>
      <Harness view={view} onClose={onClose} />
    </AppProviders>,
  );
  return onClose;
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const tick = () => document.querySelector('[data-testid="score-success"] .tl-tasks-score__tick');

describe('the score dialog', () => {
  beforeEach(() => {
    mockFetch(() => jsonResponse({ status: 'error', code: 'ROUTE_NOT_FOUND', message: 'no' }, 404));
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a tick on success and closes exactly 3 seconds later', async () => {
    expect(SCORE_DIALOG_CLOSE_MS).toBe(3000);
    const onClose = renderDialog(success);
    await advance(0);
    expect(screen.getByTestId('score-success')).toHaveTextContent('Score updated');
    expect(tick()).not.toBeNull();
    expect(screen.getAllByTestId('verdict-done')).toHaveLength(1);
    expect(screen.getByTestId('score-dialog')).toHaveTextContent('Mara: I find the key.');

    await advance(SCORE_DIALOG_CLOSE_MS - 1);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('score-dialog')).toBeInTheDocument();

    await advance(1);
    expect(onClose).toHaveBeenCalledTimes(1);
    // The modal plays its closing animation, then its content is gone.
    await advance(1000);
    expect(screen.queryByTestId('score-dialog')).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows a stream error (TASK_OUTPUT_INVALID) without a tick and stays open', async () => {
    const onClose = renderDialog(failure(ErrorCode.TASK_OUTPUT_INVALID));
    await advance(0);
    expect(screen.getByTestId('score-error')).toHaveTextContent('The AI did not answer in a readable form, twice. Nothing was charged; please try again.');
    expect(screen.queryByTestId('score-success')).toBeNull();
    expect(tick()).toBeNull();
    await advance(SCORE_DIALOG_CLOSE_MS * 3);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('score-error')).toBeInTheDocument();
  });

  it('a group with nothing left to score is information, not an error, and the dialog closes at once', async () => {
    const onClose = renderDialog(failure(ErrorCode.TASK_NOTHING_TO_SCORE, 409));
    await advance(0);
    expect(onClose).toHaveBeenCalledTimes(1);
    const notice = screen.getByText('Every task of this group is completed: there is nothing left to score.');
    expect(notice.closest('.ant-message-notice')?.querySelector('.anticon-info-circle')).not.toBeNull();
    expect(tick()).toBeNull();
    await advance(1000);
    expect(screen.queryByTestId('score-dialog')).toBeNull();
  });
});
