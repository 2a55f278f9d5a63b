import type { ClonePublicStoryDto, ExportDto, LoginDto } from '@taleloom/contracts';
import { startAppProcess } from './support/app-process';
import { type JourneyStep, PASSWORD, restartJourney, STEP_TIMEOUT } from './support/restart-journey';

// Signing up and in, checking in, playing (charged once), publishing, cloning (royalties), exporting and
// inviting, each followed by a restart (test/support/restart-journey.ts says what every restart proves).
describe('restart journey, accounts and power: the embedded default keeps them across SIGTERM and SIGKILL', () => {
  const j = restartJourney('accounts');
  const { call, get, post, ok, playTurn, quiet, pictureSpend, chargedExactly, storyText, signUp, createStory, points, users, stories, facts } = j;
  j.start();

  it('starts with one line saying which database runs and why, and no stack traces', () => {
    const lines = j.app.output.split('\n').filter(Boolean);
    const database = lines.filter((l) => l.startsWith('Database: '));
    expect(database).toHaveLength(1);
    if (j.mongodbUri) return expect(database[0]).toMatch(/^Database: MongoDB at /);
    expect(database[0]).toMatch(/^Database: embedded (stand-in \(CongoDB, offline\), data in .+, because .+|MongoDB \(mongodb-memory-server, a real mongod\), data in .+)$/);
    expect(lines.findIndex((l) => l.startsWith('TaleLoom is running at'))).toBeGreaterThan(lines.indexOf(database[0]));
    // No mongodb-memory-server download stack, no debug lines of the stand-in's package, no Nest boot chatter.
    expect(j.app.output).not.toMatch(/DownloadError|MongoBinary|svDb|InstanceLoader|RouterExplorer|^\s+at /m);
  });

  (j.mongodbUri ? it.skip : it)('a second app on the same DATA_DIR is refused with one sentence, and the first keeps running', async () => {
    await expect(startAppProcess(j.env())).rejects.toThrow(/The data folder .+ is in use by process \d+ .+: stop it first/);
    expect((await get('/api/health')).status).toBe(200);
  }, STEP_TIMEOUT);

  const steps: JourneyStep[] = [
    {
      name: 'sign up',
      run: async () => {
        // pat and quinn are the probes' users: after each restart they use what they made before it.
        for (const name of ['alice', 'bob', 'pat', 'quinn']) await signUp(name);
      },
      prober: 'login',
      probe: async () => {
        // Sign-in is limited per client address (30 a minute): one user a restart, in turn.
        const names = [...users.keys()];
        const name = names[j.restarts % names.length];
        const res = await post('/api/user/login', undefined, { type: 'username', userName: name, password: PASSWORD } satisfies LoginDto);
        expect(res.status).toBe(200);
        users.get(name)!.token = (res.body.data as { token: string }).token;
        if (j.restarts % 4 === 0) await expect(signUp(`newcomer${j.restarts}`)).resolves.toBeTruthy();
      },
    },
    {
      name: 'check in',
      run: async () => {
        for (const name of ['alice', 'bob', 'pat', 'quinn']) {
          const body = await ok('/api/user/check-in', name, {});
          expect((body.data as { awarded: number }).awarded).toBeGreaterThan(0);
        }
      },
      prober: 'alice',
      probe: async () => {
        const again = await post('/api/user/check-in', 'alice', {});
        expect([again.status, again.body.code]).toEqual([409, 'ALREADY_CHECKED_IN']);
        expect((await ok('/api/user/check-in-status', 'alice')).data).toEqual({ dailyCheckinStatus: true });
      },
    },
    {
      name: 'create stories',
      run: async () => {
        await createStory('alice', 'main');
        await createStory('pat', 'probe');
        await createStory('quinn', 'probe2');
      },
      prober: 'pat',
      probe: async () => {
        const id = await createStory('pat', `scratch${j.restarts}`);
        expect(((await ok(`/api/user/check-story/${id}`, 'pat')).data as object)).toBeTruthy();
      },
    },
    {
      name: 'play and accept',
      run: async () => {
        await chargedExactly('alice', async () => {
          const { added, cost } = await playTurn('alice', 'main', { role: 'Keeper', content: 'I light the lamp.' });
          expect(added).toContain('I light the lamp.');
          return cost;
        });
      },
      prober: 'pat',
      probe: async () => void (await playTurn('pat', 'probe', { content: `Turn after restart ${j.restarts}.` })),
    },
    {
      name: 'regenerate',
      run: async () => {
        // Three generations, each charged once.
        await chargedExactly('alice', async () => (await playTurn('alice', 'main', { content: 'The ship turns.' }, 2)).cost);
      },
      prober: 'pat',
      probe: async () => void (await playTurn('pat', 'probe', { content: 'Again.' }, 1)),
    },
    {
      name: 'publish',
      run: async () => {
        await ok(`/api/user/public/${stories.get('main')!.id}`, 'alice', {});
        const square = (await ok('/api/user/story-list?public=true', 'bob')).data as { list: { userID: string }[] };
        expect(square.list.some((s) => s.userID === users.get('alice')!.userID)).toBe(true);
      },
      prober: 'pat',
      probe: async () => {
        const square = (await ok('/api/user/story-list?public=true', 'pat')).data as { list: { userID: string }[] };
        expect(square.list.some((s) => s.userID === users.get('alice')!.userID)).toBe(true);
      },
    },
    {
      name: 'clone from a second user, who plays it (royalties)',
      run: async () => {
        await quiet();
        const aliceBefore = await points('alice');
        const cloned = (await ok('/api/user/clone-public-story', 'bob', { userID: users.get('alice')!.userID, storyID: stories.get('main')!.id } satisfies ClonePublicStoryDto)).data as { id: string };
        stories.set('clone', { owner: 'bob', id: cloned.id });
        const bobPictures = await pictureSpend('bob');
        let generation = 0;
        // 10 % (rounded down) of what others spend on a clone of a public story goes to its author: bob
        // plays until he has spent at least 10 (a turn's cost follows the demo model's varying length).
        await chargedExactly('bob', async () => {
          for (let turn = 0; turn < 5 && generation < 10; turn++) generation += (await playTurn('bob', 'clone', { content: `I take the keeper's place (${turn}).` })).cost;
          return generation;
        });
        expect(generation).toBeGreaterThanOrEqual(10);
        const pictureRoyalties = (await pictureSpend('bob')).royalties - bobPictures.royalties;
        expect(await points('alice')).toBe(aliceBefore + Math.floor((generation * 10) / 100) + pictureRoyalties);
      },
      prober: 'pat',
      probe: async () => {
        const cloned = (await ok('/api/user/clone-public-story', 'pat', { userID: users.get('alice')!.userID, storyID: stories.get('main')!.id } satisfies ClonePublicStoryDto)).data as { id: string };
        stories.set(`pat clone ${j.restarts}`, { owner: 'pat', id: cloned.id });
      },
    },
    {
      name: 'export',
      run: async () => {
        const text = await storyText('alice', 'main');
        for (const format of ['txt', 'docx'] as const) {
          const res = await call('POST', '/api/export', 'alice', { content: text, format, name: 'main tale', story_id: stories.get('main')!.id } satisfies ExportDto);
          expect(res.status).toBe(200);
          expect(res.bytes!.length).toBeGreaterThan(100);
          if (format === 'txt') expect(res.bytes!.toString('utf8')).toContain('I light the lamp.');
        }
      },
      prober: 'alice',
      probe: async () => {
        const res = await call('POST', '/api/export', 'alice', { content: await storyText('alice', 'main'), format: 'html', story_id: stories.get('main')!.id } satisfies ExportDto);
        expect(res.status).toBe(200);
      },
    },
    {
      name: 'invite',
      run: async () => {
        const code = ((await ok('/api/user/invite-code', 'alice', {})) as { short?: string; data?: { short?: string } });
        const short = code.short ?? code.data?.short;
        expect(short).toMatch(/^\w+$/);
        facts.inviteCode = short;
        // The invitation is kept with the new account (its reward waits for a verified phone).
        await signUp('carol', short as string);
      },
      prober: 'alice',
      probe: async () => {
        const code = (await ok('/api/user/invite-code', 'alice', {})) as { short?: string; data?: { short?: string } };
        expect(code.short ?? code.data?.short).toBe(facts.inviteCode);
      },
    },
  ];
  j.steps(steps);

  it('a regenerate added a take that differs at least once (the demo model varies its prose)', () => {
    expect(facts.regenerated).toBe(true);
  });
});
