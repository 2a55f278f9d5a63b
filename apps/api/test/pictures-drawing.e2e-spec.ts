import { ErrorCode, type RequestPictureDto, type StoryPicture, type UpdateStoryDto } from '@taleloom/contracts';
import { PNG } from 'pngjs';
import { ImageProvider, imageDimensions, PictureFailure } from '../src/pictures/image-provider';
import { PictureRunner } from '../src/pictures/picture.runner';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { sendTurn, textOf, unthrottle } from './support/play-helpers';
import { startOpenAIStub, type OpenAIStub } from './support/openai-stub';
import { docxParagraphs, exportFile, picturesSuite, PRICE } from './support/pictures-suite';
import { createTestApp, type TestApp } from './test-app';

describe('pictures: drawing illustrations, automatic and on demand, paid once (/api/llm/{id}/pictures)', () => {
  const suite = picturesSuite();
  const { drain, list, image, playTurn, newStory } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser, bob: TestUser;
  beforeEach(() => void ({ t, stub, base, alice, bob } = suite));

  it('illustrates an accepted passage in the background: the model writes the prompt, the endpoint draws it, it is charged once', async () => {
    const id = await newStory(alice);
    const { appended } = await playTurn(alice, id);
    // Right after the accept the picture is pending, beside the passage just appended.
    const [pending] = await list(alice, id);
    expect(pending).toMatchObject({ status: 'pending', url: null, size: '512*512', cost: 0 });
    const story = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
    expect(story.main_text.slice(pending.from, pending.to)).toBe(appended.replace(/^\n/, ''));
    await drain();

    const [ready] = await list(alice, id);
    expect(ready).toMatchObject({ id: pending.id, status: 'ready', url: `/api/images/${pending.id}`, width: 512, height: 512, demo: false, cost: PRICE, errorCode: null });
    // The prompt request: the passage and the character settings went to the story's model.
    const promptRequest = stub.bodies.find((b) => JSON.stringify(b.messages).includes('<passage>'))!;
    expect(promptRequest.model).toBe('free');
    expect(promptRequest.messages.at(-1)!.content).toContain('Mara: a ferry pilot');
    expect(promptRequest.messages.at(-1)!.content).toContain('Mara: I wave at the ferry.');
    // The images endpoint got the default style and the model's prompt, through the SDK.
    expect(stub.imageRequests).toBe(1);
    expect(stub.imageBodies[0]).toMatchObject({ model: 'stub-image-1', size: '512x512', response_format: 'b64_json', n: 1 });
    expect(stub.imageBodies[0].prompt).toMatch(/^Storybook illustration/);
    expect(stub.imageBodies[0].prompt).toContain('The lamp flickered');
    expect(ready.prompt).toBe(stub.imageBodies[0].prompt);
    // Charged once: one hold, one settle.
    expect(await balanceOf(t, alice.userID)).toBe(1000 - PRICE);
    const moves = await entriesOf(t, alice.userID, { kind: { $in: ['hold', 'settle', 'release'] } });
    expect(moves.map((e) => e.kind).sort()).toEqual(['hold', 'settle']);

    // The file: a real PNG of the chosen size, cached privately, answered 304 when unchanged.
    const file = await image(alice, ready.id);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(file.headers.etag).toBe(`"${ready.id}"`);
    const png = PNG.sync.read(file.body as Buffer);
    expect([png.width, png.height]).toEqual([512, 512]);
    const again = await image(alice, ready.id).set('If-None-Match', `"${ready.id}"`);
    expect(again.status).toBe(304);
  });

  it('illustrates the passage a new send accepts first (the reply left unaccepted before it)', async () => {
    const id = await newStory(alice);
    await unthrottle(t, id);
    const first = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I wave at the ferry.', model_name: 'free' });
    const reply = textOf(first.events);
    expect(await list(alice, id)).toEqual([]);
    // No accept: the next send takes the first reply into the story, and that passage gets its picture.
    await unthrottle(t, id);
    const second = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'I board the ferry.', model_name: 'free' });
    expect(second.events.at(-1)).toMatchObject({ type: 'done' });
    // The picture is asked for beside the send, not before it; the runner's drain covers that too.
    await drain();
    const [picture] = await list(alice, id);
    const story = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
    expect(story.main_text.slice(picture.from, picture.to)).toBe(`Mara: I wave at the ferry.\n${reply.trim()}`);
    expect(picture).toMatchObject({ status: 'ready', cost: PRICE });
    const promptRequest = stub.bodies.find((b) => JSON.stringify(b.messages).includes('<passage>'))!;
    expect(promptRequest.messages.at(-1)!.content).toContain('Mara: I wave at the ferry.');
    expect(promptRequest.messages.at(-1)!.content).not.toContain('I board the ferry.');
    expect(stub.imageRequests).toBe(1);
    expect(await balanceOf(t, alice.userID)).toBe(1000 - PRICE);
  });

  it("writes the prompt and character sheet on the story's custom model with the user's key; the picture still costs IMAGES_POINTS", async () => {
    const id = await newStory(alice, { settings_camera_consistency_switch: true });
    const added = await as(t, alice).post('/api/custom-models', { model_name: 'Mine', base_url: stub.baseURL, api_key: 'sk-own-key-123', model_type: 'compatible_openai' });
    expect(added.status).toBe(201);
    expect((await as(t, alice).patch(`/api/llm?id=${id}`, { model_type: 'compatible_openai', model_name: 'Mine' })).status).toBe(200);
    stub.reset();
    const text = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data.main_text as string;
    expect((await as(t, alice).post(`/api/llm/${id}/pictures`, { from: 0, to: text.indexOf('\n') } satisfies RequestPictureDto)).status).toBe(202);
    await drain();
    expect(await list(alice, id)).toMatchObject([{ status: 'ready', cost: PRICE }]);
    // Both requests (the sheet, then the prompt) went to the custom model with the user's own key.
    expect(stub.bodies.map((b) => JSON.stringify(b.messages).includes('<sheet-request>'))).toEqual([true, false]);
    expect(stub.bodies.map((b) => b.model)).toEqual(['Mine', 'Mine']);
    expect(stub.keys).toEqual(['sk-own-key-123', 'sk-own-key-123']);
    expect(stub.imageRequests).toBe(1);
    // Only the picture is charged: one hold and one settle of IMAGES_POINTS, nothing for the prompt.
    expect(await balanceOf(t, alice.userID)).toBe(1000 - PRICE);
    const moves = await entriesOf(t, alice.userID, { kind: { $in: ['hold', 'settle', 'release'] } });
    expect(moves.map((e) => e.kind).sort()).toEqual(['hold', 'settle']);

    // With the custom model deleted the story is back on the platform model, and so is the next prompt.
    expect((await as(t, alice).delete('/api/custom-models/Mine')).status).toBe(200);
    stub.reset();
    const redraw = await as(t, alice).post(`/api/llm/${id}/pictures`, { from: 0, to: text.indexOf('\n') } satisfies RequestPictureDto);
    expect(redraw.status).toBe(202);
    await drain();
    expect(stub.bodies.map((b) => b.model)).toEqual(['free']);
    expect(stub.keys).not.toContain('sk-own-key-123');
  });

  it('draws nothing with the camera off, and says so when asked', async () => {
    const id = await newStory(alice, { settings_camera_switch: false });
    await playTurn(alice, id);
    await drain();
    expect(await list(alice, id)).toEqual([]);
    expect(stub.imageRequests).toBe(0);
    const asked = await as(t, alice).post(`/api/llm/${id}/pictures`, { from: 0, to: 10, language: 'zh-CN' } satisfies RequestPictureDto);
    expect(asked.status).toBe(409);
    expect(asked.body).toMatchObject({ code: ErrorCode.PICTURES_OFF, message: '本故事的 AI 配图已关闭，请在设置中打开。' });
  });

  it('charges nothing for a failed picture, says why, and retries it', async () => {
    const id = await newStory(alice);
    stub.set({ images: { httpStatus: 500 } });
    await playTurn(alice, id);
    await drain();
    const [failed] = await list(alice, id);
    expect(failed).toMatchObject({ status: 'failed', errorCode: ErrorCode.PICTURE_FAILED, url: null, cost: 0 });
    expect(await balanceOf(t, alice.userID)).toBe(1000);
    expect((await entriesOf(t, alice.userID, { kind: { $in: ['settle', 'release'] } })).map((e) => e.kind)).toEqual(['release']);

    // Answers that carry no picture, or no picture bytes, fail the same way.
    for (const mode of ['empty', 'not-image'] as const) {
      stub.set({ images: { mode } });
      const retried = await as(t, alice).post(`/api/llm/${id}/pictures/${(await list(alice, id))[0].id}/retry`);
      expect(retried.status).toBe(202);
      await drain();
      expect((await list(alice, id))[0]).toMatchObject({ status: 'failed', errorCode: ErrorCode.PICTURE_FAILED });
    }
    expect(await balanceOf(t, alice.userID)).toBe(1000);

    // Retry once the endpoint works: a new drawing replaces the failed one and is charged once.
    stub.set({ images: { mode: 'url' } });
    const retry = await as(t, alice).post(`/api/llm/${id}/pictures/${(await list(alice, id))[0].id}/retry`);
    expect(retry.body.data).toMatchObject({ status: 'pending' });
    await drain();
    const pictures = await list(alice, id);
    expect(pictures).toHaveLength(1);
    expect(pictures[0]).toMatchObject({ id: retry.body.data.id, status: 'ready', cost: PRICE });
    expect((await image(alice, pictures[0].id)).status).toBe(200);
    expect(await balanceOf(t, alice.userID)).toBe(1000 - PRICE);
    // A failed old drawing cannot be retried through a story that no longer references it.
    expect((await as(t, alice).post(`/api/llm/${id}/pictures/${failed.id}/retry`)).body.code).toBe(ErrorCode.PICTURE_NOT_FOUND);
  });

  it('holds the price before drawing on demand: NOT_ENOUGH_POWER asks nothing; an automatic picture records why it failed', async () => {
    const id = await createStory(t, bob, { prologue_and_characters: 'Bob walks.' });
    const refused = await as(t, bob).post(`/api/llm/${id}/pictures`, { from: 0, to: 10 } satisfies RequestPictureDto);
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe(ErrorCode.NOT_ENOUGH_POWER);
    expect(await list(bob, id)).toEqual([]);
    await playTurn(bob, id);
    await drain();
    expect(await list(bob, id)).toMatchObject([{ status: 'failed', errorCode: ErrorCode.NOT_ENOUGH_POWER, cost: 0 }]);
    expect(stub.imageRequests).toBe(0);
    expect(await balanceOf(t, bob.userID)).toBe(0);
  });

  it('draws any passage on demand in the chosen size and style, redraws it, and checks the range', async () => {
    const id = await newStory(alice, { settings_pic_size: '512*768', settings_camera_style_switch: 'custom', settings_camera_style_prompt_text: 'Ink and wash, muted greens.' });
    const text = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data.main_text as string;
    const first = await as(t, alice).post(`/api/llm/${id}/pictures`, { from: 0, to: text.indexOf('\n') } satisfies RequestPictureDto);
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ status: 'pending', from: 0, to: text.indexOf('\n'), size: '512*768' });
    await drain();
    expect(stub.imageBodies[0].size).toBe('512x768');
    expect(stub.imageBodies[0].prompt).toMatch(/^Ink and wash, muted greens\./);
    expect(imageDimensions((await image(alice, first.body.data.id)).body as Buffer)).toEqual({ width: 512, height: 768 });
    // The operator's size map: 512*1024 goes out as the endpoint's size.
    await as(t, alice).patch(`/api/llm?id=${id}`, { settings_pic_size: '512*1024' } satisfies UpdateStoryDto);
    // The same passage again: its picture is redrawn, not added.
    const redraw = await as(t, alice).post(`/api/llm/${id}/pictures`, { from: 0, to: text.indexOf('\n') } satisfies RequestPictureDto);
    await drain();
    const pictures = await list(alice, id);
    expect(pictures.map((p) => p.id)).toEqual([redraw.body.data.id]);
    expect(pictures[0]).toMatchObject({ status: 'ready', size: '512*1024', height: 1024 });
    expect(stub.imageBodies[1].size).toBe('512x1024');
    expect(await balanceOf(t, alice.userID)).toBe(1000 - 2 * PRICE);

    for (const body of [{ from: 5, to: 5 }, { from: 0, to: text.length + 1 }]) {
      const bad = await as(t, alice).post(`/api/llm/${id}/pictures`, body);
      expect([bad.status, bad.body.code]).toEqual([400, ErrorCode.PICTURE_PASSAGE_EMPTY]);
    }
    const invalid = await as(t, alice).post(`/api/llm/${id}/pictures`, { from: 'x', to: 3 });
    expect([invalid.status, invalid.body.code]).toEqual([400, ErrorCode.VALIDATION_FAILED]);
  });

  it('keeps the characters alike with consistency on: one character sheet, reused by every prompt', async () => {
    const id = await newStory(alice, { settings_camera_consistency_switch: true });
    stub.set({
      chunks: (body, n) =>
        JSON.stringify(body.messages).includes('<sheet-request>') ? ['Mara: tall, short dark hair, red wool coat.'] : [`Scene ${n}: the pier at dusk.`],
    });
    await playTurn(alice, id, 'I wave.');
    await drain();
    await playTurn(alice, id, 'I board the ferry.');
    await drain();
    const sheetRequests = stub.bodies.filter((b) => JSON.stringify(b.messages).includes('<sheet-request>'));
    expect(sheetRequests).toHaveLength(1);
    const story = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
    expect(story.picture_character_sheet).toBe('Mara: tall, short dark hair, red wool coat.');
    // Both image prompts carry the same sheet; the second prompt request was given it too.
    expect(stub.imageBodies).toHaveLength(2);
    for (const body of stub.imageBodies) expect(body.prompt).toContain('Characters:\nMara: tall, short dark hair, red wool coat.');
    const promptRequests = stub.bodies.filter((b) => JSON.stringify(b.messages).includes('Write the picture prompt'));
    expect(promptRequests.at(-1)!.messages.at(-1)!.content).toContain('<character-sheet>');
    // The user may edit the sheet; later pictures use the edited one.
    await as(t, alice).patch(`/api/llm?id=${id}`, { picture_character_sheet: 'Mara: old, white beard.' } satisfies UpdateStoryDto);
    await playTurn(alice, id, 'I sail.');
    await drain();
    expect(stub.imageBodies.at(-1)!.prompt).toContain('Mara: old, white beard.');
  });

  it('times out a slow images endpoint through the SDK (PROVIDER_TIMEOUT)', async () => {
    stub.set({ images: { delayMs: 400 } });
    const generate = new ImageProvider().generate({
      baseURL: stub.baseURL, apiKey: '', model: 'm', prompt: 'a pier', size: '64x64', responseFormat: 'none', timeoutMs: 100,
    });
    await expect(generate).rejects.toBeInstanceOf(PictureFailure);
    await expect(generate).rejects.toMatchObject({ code: ErrorCode.PROVIDER_TIMEOUT });
    // response_format left out when the operator says so (gpt-image-1 refuses it).
    await new Promise((r) => setTimeout(r, 400));
    expect(stub.imageBodies[0]).not.toHaveProperty('response_format');
  });
});

describe('pictures: the offline demo generator (the embedded default)', () => {
  let t: TestApp;
  let stub: OpenAIStub;

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([{ label: 'Free', value: 'free', points: 0, contextWindow: 4096, maxOutput: 200, baseURL: stub.baseURL }]),
      DEMO_MODEL: 'on',
      DEMO_MODEL_CHUNK_DELAY_MS: '0',
      IMAGES_PROVIDER: 'demo',
    });
  });
  afterAll(async () => {
    await t.app.get(PictureRunner).drain();
    await t.close();
    await stub.close();
  });

  it('draws a real demo picture from the prompt the demo model writes', async () => {
    const user = await signUp(t, 'dora');
    const id = await createStory(t, user, { prologue_and_characters: 'Mara: a pilot.\nMara waits at the pier at night.', model_name: 'demo' });
    const listed = await as(t, user).get(`/api/llm/${id}/pictures`);
    expect(listed.body.data.generator).toEqual({ available: true, demo: true, points: 0 });
    const asked = await as(t, user).post(`/api/llm/${id}/pictures`, { from: 0, to: 14 } satisfies RequestPictureDto);
    expect(asked.status).toBe(202);
    await t.app.get(PictureRunner).drain();
    const [picture] = (await as(t, user).get(`/api/llm/${id}/pictures`)).body.data.pictures as StoryPicture[];
    expect(picture).toMatchObject({ status: 'ready', demo: true, width: 512, height: 512 });
    // The demo model wrote the prompt from the passage.
    expect(picture.prompt).toContain('A scene from the story: Mara: a pilot.');
    const file = await as(t, user).get(`/api/images/${picture.id}`).buffer(true).parse((res, cb) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => cb(null, Buffer.concat(parts)));
    });
    const png = PNG.sync.read(file.body as Buffer);
    expect([png.width, png.height]).toEqual([512, 512]);
    // Not one colour: a drawn scene (many distinct colours).
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4 * 97) colours.add(png.data.readUInt32BE(i));
    expect(colours.size).toBeGreaterThan(8);
    expect(stub.imageRequests).toBe(0);

    // Exported, it is captioned as a demo picture in docx as in html, right after its passage.
    const text = (await as(t, user).get(`/api/llm?id=${id}`)).body.data.main_text as string;
    const docx = await exportFile(t, user, { content: text, format: 'docx', story_id: id });
    const paragraphs = await docxParagraphs(docx.body as Buffer);
    expect(paragraphs.slice(0, 3)).toEqual([
      { text: 'Mara: a pilot.', picture: false },
      { text: '', picture: true },
      { text: 'Demo picture (drawn offline, not by an AI model)', picture: false },
    ]);
    const html = (await exportFile(t, user, { content: text, format: 'html', story_id: id })).body.toString('utf8');
    expect(html).toMatch(/<p>Mara: a pilot\.<\/p>\n<figure><img [^>]+><figcaption>Demo picture \(drawn offline, not by an AI model\)<\/figcaption><\/figure>/);
    // pngjs (the demo's encoder and the check above) runs many times slower inside the test runner than in the API.
  }, 90_000);
});
