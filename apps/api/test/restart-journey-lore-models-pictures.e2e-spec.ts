import type { CreateCustomModelDto, CreateLoreEntryDto, LoreBookData, PromptContextData, UpdateLoreEntryDto } from '@taleloom/contracts';
import { firedTitles, type JourneyStep, PICTURE_POINTS, restartJourney } from './support/restart-journey';

// Lore that fires in the prompt, a custom model whose encrypted key is used, pictures that are drawn and
// charged, each followed by a restart (test/support/restart-journey.ts says what every restart proves).
describe('restart journey, lore, own models and pictures: the embedded default keeps them across SIGTERM and SIGKILL', () => {
  const j = restartJourney('lore');
  const { ok, playTurn, quiet, chargedExactly, storyText, points, drawPicture, stories } = j;
  // Not steps (restart-journey-accounts proves them across restarts): the users and stories these steps use.
  j.start(j.seedPlayers);

  const steps: JourneyStep[] = [
    {
      name: 'add lore, mention it, see it fire in the inspector',
      run: async () => {
        const id = stories.get('main')!.id;
        await ok(`/api/lore/${id}/entries`, 'alice', {
          title: 'Ashford Keep',
          keys: ['Ashford'],
          content: 'Ashford Keep guards the northern pass; its gate opens only at dawn.',
        } satisfies CreateLoreEntryDto);
        await chargedExactly('alice', async () => (await playTurn('alice', 'main', { content: 'We ride for Ashford before the storm.' })).cost);
        expect(firedTitles((await ok(`/api/llm/${id}/context`, 'alice')).data as PromptContextData)).toEqual(['Ashford Keep']);
      },
      prober: 'quinn',
      probe: async () => {
        // Every restart: the entry written before it is changed (a write conditional on the lore's stored
        // version), one more is added, and a send that mentions both keywords fires both.
        const id = stories.get('probe2')!.id;
        let lore = (await ok(`/api/lore/${id}`, 'quinn')).data as LoreBookData;
        if (!lore.entries.length) {
          lore = (await ok(`/api/lore/${id}/entries`, 'quinn', { title: 'Gull Rock', keys: ['gull'], content: 'Gull Rock is where ships break.' } satisfies CreateLoreEntryDto)).data as LoreBookData;
        }
        const first = lore.entries[0];
        const changed = (await ok(`/api/lore/${id}/entries/${first.id}`, 'quinn', { content: `Gull Rock is where ships break (restart ${j.restarts}).` } satisfies UpdateLoreEntryDto, 'PATCH')).data as LoreBookData;
        expect(changed.version).toBeGreaterThan(lore.version);
        const title = `Beacon ${j.restarts}`;
        await ok(`/api/lore/${id}/entries`, 'quinn', { title, keys: [`beacon${j.restarts}`], content: `Beacon ${j.restarts} burns green.` } satisfies CreateLoreEntryDto);
        await playTurn('quinn', 'probe2', { content: `Past the gull rock to beacon${j.restarts}.` });
        const context = (await ok(`/api/llm/${id}/context`, 'quinn')).data as PromptContextData;
        expect(firedTitles(context)).toEqual(expect.arrayContaining(['Gull Rock', title]));
        expect(JSON.stringify(context)).toContain(`(restart ${j.restarts})`);
      },
    },
    {
      name: 'add a custom model and play with it',
      run: async () => {
        await ok('/api/custom-models', 'alice', {
          model_name: 'my-local',
          base_url: `${j.stub.baseURL}`,
          api_key: 'sk-journey-secret-key',
          model_type: 'compatible_openai',
        } satisfies CreateCustomModelDto);
        const asked = j.stub.requests;
        const { added, cost } = await playTurn('alice', 'main', { content: 'Ask my own model.', model_type: 'compatible_openai', model_name: 'my-local' });
        expect(added).toContain('The lamp flickered');
        expect(cost).toBe(0);
        expect(j.stub.requests).toBe(asked + 1);
      },
      // The key encrypted before the j.restarts still decrypts: the provider (which wants that key) answers.
      prober: 'alice',
      probe: async () => {
        const asked = j.stub.requests;
        await playTurn('alice', 'main', { content: `Own model after restart ${j.restarts}.`, model_type: 'compatible_openai', model_name: 'my-local' });
        expect(j.stub.requests).toBe(asked + 1);
      },
    },
    {
      name: 'draw a picture',
      run: async () => {
        await quiet();
        const before = await points('alice');
        const text = await storyText('alice', 'main');
        await drawPicture('alice', 'main', 0, Math.min(60, text.length));
        expect(await points('alice')).toBe(before - PICTURE_POINTS);
      },
      prober: 'quinn',
      probe: async () => {
        const text = await storyText('quinn', 'probe2');
        await drawPicture('quinn', 'probe2', 0, Math.min(30 + j.restarts, text.length));
      },
    },
  ];
  j.steps(steps);
});
