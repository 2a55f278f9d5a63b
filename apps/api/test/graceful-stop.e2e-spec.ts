import type { AcceptTurnDto, CreateStoryDto, LoginDto, StreamEvent } from '@taleloom/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, ensureBuilt, startAppProcess, type AppProcess } from './support/app-process';
import { postEvents, textOf } from './support/play-helpers';

// Ctrl+C (SIGTERM) while a turn streams from the offline demo model and while its picture is drawn by
// the demo image generator: both finish before the app exits (the demo servers close after the work
// they serve has drained), so the user keeps a whole turn and a drawn picture, not a failed one.
describe('a stop while a turn streams and a picture is drawn lets both finish', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'taleloom-stop-'));
  const env = { DATA_DIR: dataDir, DEMO_MODEL_POINTS: '0', DEMO_MODEL_CHUNK_DELAY_MS: '150', LOG_LEVEL: 'warn' };
  let app: AppProcess;

  beforeAll(async () => {
    ensureBuilt();
    app = await startAppProcess(env);
  }, 60_000);
  afterAll(() => app?.stop());

  const call = async (method: string, path: string, token?: string, body?: object) =>
    (await callJson<{ status: string; data: Record<string, unknown> }>(app, method, path, token, body)).body;

  it('streams the turn to its end, stores it, and draws the picture asked for just before the stop', async () => {
    const login = await call('POST', '/api/user/login', undefined, { type: 'username', userName: 'stopper', password: 'secret1' } satisfies LoginDto);
    const token = login.data.token as string;
    const id = (await call('POST', '/api/llm', token, { name: 'Stopped', prologue_and_characters: 'The night train leaves at nine.' } satisfies CreateStoryDto)).data.id as string;

    // The first turn, accepted: its picture starts drawing; stop at once.
    const first = await postEvents(app.baseURL, token, `/api/llm/${id}`, { content: 'I board the train.' });
    const user = first.events.find((e) => e.type === 'user') as Extract<StreamEvent, { type: 'user' }>;
    await call('POST', `/api/llm/${id}/accept`, token, { userContent: user.text, newContent: textOf(first.events), turnId: user.turnId } satisfies AcceptTurnDto);

    // A second turn (one send a second): stop the app when its first words arrive.
    await new Promise((r) => setTimeout(r, 1100));
    const drawing = (await call('GET', `/api/llm/${id}/pictures`, token)).data as { pictures: { status: string }[] };
    expect(drawing.pictures.map((p) => p.status)).toEqual(['pending']);
    let stopped: Promise<void> | undefined;
    const second = await postEvents(app.baseURL, token, `/api/llm/${id}`, { content: 'I find my seat.' }, undefined, {
      onEvent: (event) => {
        if (event.type === 'delta' && !stopped) stopped = app.stop();
      },
    });
    expect(stopped).toBeDefined();
    expect(second.events.filter((e) => e.type === 'error')).toEqual([]);
    expect(second.events.at(-1)?.type).toBe('done');
    await stopped;
    expect(await app.exited).toBe(0);

    app = await startAppProcess(env);
    const pending = (await call('GET', `/api/llm/${id}/pending`, token)).data;
    expect(pending).toMatchObject({ state: 'done', aiText: textOf(second.events) });
    const { pictures } = (await call('GET', `/api/llm/${id}/pictures`, token)).data as { pictures: { status: string; errorCode: string | null }[] };
    expect(pictures.map((p) => [p.status, p.errorCode])).toEqual([['ready', null]]);
  }, 60_000);
});
