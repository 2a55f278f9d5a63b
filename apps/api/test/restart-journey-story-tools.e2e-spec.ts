import type { AddTaskGroupDto, BranchesData, BranchSwitchData, CreateBranchDto, LoadArchiveDto, SaveArchiveDto, UpdateStoryDto } from '@taleloom/contracts';
import { type JourneyStep, restartJourney } from './support/restart-journey';

// Branches, archives, tasks and story settings, each followed by a restart (test/support/restart-journey.ts
// says what every restart proves).
describe('restart journey, story tools: the embedded default keeps them across SIGTERM and SIGKILL', () => {
  const j = restartJourney('tools');
  const { ok, stream, playTurn, chargedExactly, storyText, stories, facts } = j;
  // Not steps (restart-journey-accounts proves them across restarts): the users and stories these steps use.
  j.start(j.seedPlayers);

  const steps: JourneyStep[] = [
    {
      name: 'branch from an earlier passage, play the branch, switch back',
      run: async () => {
        const id = stories.get('main')!.id;
        const original = await storyText('alice', 'main');
        const at = original.indexOf('\n');
        const forked = (await ok(`/api/llm/${id}/branches`, 'alice', { at, from_branch: id } satisfies CreateBranchDto)).data as BranchSwitchData;
        expect(forked.story.main_text).toBe(original.slice(0, at));
        await chargedExactly('alice', async () => (await playTurn('alice', 'main', { content: 'We take the other road.' }, 1)).cost);
        facts.branchText = await storyText('alice', 'main');
        facts.branchId = forked.current;
        await ok(`/api/llm/${id}/branches/${id}/play`, 'alice', {});
        expect(await storyText('alice', 'main')).toBe(original);
      },
      prober: 'alice',
      probe: async () => {
        // The branch made before all the j.restarts since still plays its own text; a new one can be made.
        const id = stories.get('main')!.id;
        const onMain = await storyText('alice', 'main');
        await ok(`/api/llm/${id}/branches/${facts.branchId as string}/play`, 'alice', {});
        expect(await storyText('alice', 'main')).toBe(facts.branchText);
        await ok(`/api/llm/${id}/branches/${id}/play`, 'alice', {});
        expect(await storyText('alice', 'main')).toBe(onMain);
        const made = (await ok(`/api/llm/${id}/branches`, 'alice', { at: onMain.indexOf('\n') } satisfies CreateBranchDto)).data as BranchSwitchData;
        expect(made.story.main_text).toBe(onMain.slice(0, onMain.indexOf('\n')));
        await ok(`/api/llm/${id}/branches/${id}/play`, 'alice', {});
        expect(await storyText('alice', 'main')).toBe(onMain);
        expect(((await ok(`/api/llm/${id}/branches`, 'alice')).data as BranchesData).current).toBe(id);
      },
    },
    {
      name: 'save and load an archive',
      run: async () => {
        const id = stories.get('main')!.id;
        const saved = await storyText('alice', 'main');
        await ok('/api/archive/save', 'alice', { story_id: id, archive_index: 3 } satisfies SaveArchiveDto);
        await ok(`/api/llm?id=${id}`, 'alice', { main_text: `${saved}\nA line that the archive does not have.` } satisfies UpdateStoryDto, 'PATCH');
        const [entry] = (await ok(`/api/archive/${id}`, 'alice')).data as { _id: string; archive_index: number }[];
        expect(entry.archive_index).toBe(3);
        const loaded = (await ok('/api/archive/load', 'alice', { archive_id: entry._id } satisfies LoadArchiveDto)).data as { story_id: string };
        expect(loaded.story_id).toBe(id);
        expect(await storyText('alice', 'main')).toBe(saved);
      },
      prober: 'quinn',
      probe: async () => {
        // A save made before all the j.restarts since still loads exactly what it saved; a new save works.
        const id = stories.get('probe2')!.id;
        if (facts.firstProbeSave === undefined) {
          await ok('/api/archive/save', 'quinn', { story_id: id, archive_index: 10 } satisfies SaveArchiveDto);
          facts.firstProbeSave = await storyText('quinn', 'probe2');
          return;
        }
        const entries = (await ok(`/api/archive/${id}`, 'quinn')).data as { _id: string; archive_index: number }[];
        const first = entries.find((e) => e.archive_index === 10)!;
        const loaded = (await ok('/api/archive/load', 'quinn', { archive_id: first._id } satisfies LoadArchiveDto)).data as { story_id: string };
        expect(loaded.story_id).toBe(id);
        expect(await storyText('quinn', 'probe2')).toBe(facts.firstProbeSave);
        await ok('/api/archive/save', 'quinn', { story_id: id, archive_index: 10 + j.restarts } satisfies SaveArchiveDto);
      },
    },
    {
      name: 'create and score a task',
      run: async () => {
        const id = stories.get('main')!.id;
        const events = await stream('alice', `/api/tasks/${id}/create`, {});
        const suggestions = events.find((e) => e.type === 'task_suggestions') as { suggestions: { batch: string } };
        await ok(`/api/tasks/${id}/add_new`, 'alice', { batch: suggestions.suggestions.batch, index: 0 } satisfies AddTaskGroupDto);
        await playTurn('alice', 'main', { content: 'I search the lighthouse for the key.' });
        const scored = await stream('alice', `/api/tasks/${id}/0/score`, {});
        expect(scored.some((e) => e.type === 'task_scored')).toBe(true);
        const info = (await ok(`/api/tasks?story_id=${id}`, 'alice')).data as { tasks_list: { tasks_scored_at_turn: number | null }[] };
        expect(info.tasks_list[0].tasks_scored_at_turn).not.toBeNull();
      },
      prober: 'quinn',
      probe: async () => {
        const id = stories.get('probe2')!.id;
        const events = await stream('quinn', `/api/tasks/${id}/create`, {});
        expect(events.some((e) => e.type === 'task_suggestions')).toBe(true);
      },
    },
    {
      name: 'change settings',
      run: async () => {
        const id = stories.get('main')!.id;
        await ok(`/api/llm?id=${id}`, 'alice', {
          settings_pic_size: '512*768',
          settings_system_prompt_switch: 'custom',
          settings_system_prompt_text: 'Write like a sailor.',
          author_remark: 'Keep it short.',
          play_mode: 'fly_free',
        } satisfies UpdateStoryDto, 'PATCH');
        const story = (await ok(`/api/llm?id=${id}`, 'alice')).data as Record<string, unknown>;
        expect(story).toMatchObject({ settings_pic_size: '512*768', settings_system_prompt_text: 'Write like a sailor.', author_remark: 'Keep it short.' });
      },
      prober: 'pat',
      probe: async () => {
        const id = stories.get('probe')!.id;
        await ok(`/api/llm?id=${id}`, 'pat', { author_remark: `restart ${j.restarts}` } satisfies UpdateStoryDto, 'PATCH');
        expect(((await ok(`/api/llm?id=${id}`, 'pat')).data as { author_remark: string }).author_remark).toBe(`restart ${j.restarts}`);
      },
    },
  ];
  j.steps(steps);
});
