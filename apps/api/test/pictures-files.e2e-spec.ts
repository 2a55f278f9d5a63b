import { ErrorCode, type ExportDto } from '@taleloom/contracts';
import { PICTURE_BUCKET, PictureFileRepository } from '../src/pictures/picture-file.repository';
import { unzip } from './file-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import type { OpenAIStub } from './support/openai-stub';
import { docxParagraphs, exportFile, picturesSuite, PRICE } from './support/pictures-suite';
import type { TestApp } from './test-app';

describe('pictures: serving, keeping and exporting picture files (/api/images/{id}, archives, exports, GridFS)', () => {
  const suite = picturesSuite();
  const { drain, list, image, playTurn, newStory } = suite;
  let t: TestApp, stub: OpenAIStub, alice: TestUser, bob: TestUser;
  beforeEach(() => void ({ t, stub, alice, bob } = suite));

  it('serves a picture only to those who may read a story that references it', async () => {
    const id = await newStory(alice);
    await playTurn(alice, id);
    await drain();
    const [picture] = await list(alice, id);
    // Another user, no token, and a malformed id.
    expect([(await image(bob, picture.id)).status, (await image(bob, picture.id)).body.toString()]).toEqual([404, expect.stringContaining(ErrorCode.PICTURE_NOT_FOUND)]);
    expect((await image(null, picture.id)).status).toBe(401);
    expect((await image(alice, 'nope')).status).toBe(404);
    expect((await as(t, bob).get(`/api/llm/${id}/pictures`)).body.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect((await as(t, bob).post(`/api/llm/${id}/pictures`, { from: 0, to: 5 })).body.code).toBe(ErrorCode.STORY_NOT_FOUND);
    expect((await as(t, bob).post(`/api/llm/${id}/pictures/${picture.id}/retry`)).body.code).toBe(ErrorCode.STORY_NOT_FOUND);

    // Published: others read the public version's pictures.
    await as(t, alice).post(`/api/user/public/${id}`);
    expect((await list(bob, id)).map((p) => p.id)).toEqual([picture.id]);
    expect((await image(bob, picture.id)).status).toBe(200);
    // A clone shares the file: its owner may read it through the clone, even once the source is private.
    const clone = (await as(t, bob).post('/api/user/clone-public-story', { userID: alice.userID, storyID: id })).body.data.id as string;
    expect((await list(bob, clone)).map((p) => [p.id, p.status])).toEqual([[picture.id, 'ready']]);
    await as(t, alice).post(`/api/user/private/${id}`);
    expect((await image(bob, picture.id)).status).toBe(200);
    const carol = await signUp(t, 'carol');
    expect((await image(carol, picture.id)).status).toBe(404);
  });

  it('keeps pictures in archives and clones of my own story', async () => {
    const id = await newStory(alice);
    await playTurn(alice, id);
    await drain();
    const [original] = await list(alice, id);
    const saved = await as(t, alice).post('/api/archive/save', { story_id: id, archive_index: 2 });
    // Redraw: the story now shows a new picture; the archive still references the first.
    await as(t, alice).post(`/api/llm/${id}/pictures/${original.id}/retry`);
    await drain();
    expect((await list(alice, id))[0].id).not.toBe(original.id);
    await as(t, alice).post('/api/archive/load', { archive_id: saved.body.data._id });
    expect((await list(alice, id)).map((p) => [p.id, p.status])).toEqual([[original.id, 'ready']]);
    expect((await image(alice, original.id)).status).toBe(200);
    const clone = (await as(t, alice).post(`/api/llm/${id}/clone`)).body.data.id as string;
    expect((await list(alice, clone)).map((p) => p.id)).toEqual([original.id]);
  });

  it('puts ready pictures into html and docx exports beside their passages', async () => {
    const id = await newStory(alice);
    await playTurn(alice, id);
    await drain();
    const [picture] = await list(alice, id);
    const story = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
    const exportAs = (user: TestUser, body: ExportDto) => exportFile(t, user, body);
    const html = (await exportAs(alice, { content: story.main_text, format: 'html', story_id: id })).body.toString('utf8');
    const stored = await image(alice, picture.id);
    expect(html).toContain(`<img src="data:image/png;base64,${(stored.body as Buffer).toString('base64')}"`);
    // After the passage it shows (the last line), not before.
    expect(html.indexOf('<figure>')).toBeGreaterThan(html.indexOf('The lamp flickered'));
    expect(html).not.toContain('Demo picture');
    const docx = await exportAs(alice, { content: story.main_text, format: 'docx', story_id: id });
    const media = (await unzip(docx.body as Buffer)).filter((e) => e.name.startsWith('word/media/'));
    expect(media).toHaveLength(1);
    expect(media[0].data.equals(stored.body as Buffer)).toBe(true);
    // The picture's paragraph comes right after its passage's last line; no caption (not a demo picture).
    const paragraphs = await docxParagraphs(docx.body as Buffer);
    const last = paragraphs.findIndex((p) => p.text.includes('The lamp flickered'));
    expect(paragraphs.map((p) => p.picture)).toEqual(paragraphs.map((_, i) => i === last + 1));
    expect(paragraphs[last + 2]).toBeUndefined();
    // Without story_id, and for others' private stories, no pictures (and a clear error for the latter).
    expect((await exportAs(alice, { content: story.main_text, format: 'html' })).body.toString()).not.toContain('<figure>');
    const foreign = await as(t, bob).post('/api/export', { content: 'x', format: 'html', story_id: id } satisfies ExportDto);
    expect([foreign.status, foreign.body.code]).toEqual([404, ErrorCode.STORY_NOT_FOUND]);
    // Without content the story's own text, as its reader reads it, is exported: a long story is not uploaded.
    expect((await exportAs(alice, { format: 'txt', story_id: id })).body.toString('utf8')).toBe(story.main_text);
    const byId = (await exportAs(alice, { format: 'html', story_id: id })).body.toString('utf8');
    expect(byId).toContain('<figure>');
    expect(byId).toContain(`<title>${story.name}</title>`);
    const foreignById = await as(t, bob).post('/api/export', { format: 'txt', story_id: id } satisfies ExportDto);
    expect([foreignById.status, foreignById.body.code]).toEqual([404, ErrorCode.STORY_NOT_FOUND]);
    // Someone else's public story: its public version, not the owner's later private edits.
    await as(t, alice).post(`/api/user/public/${id}`).expect(200);
    await as(t, alice).patch(`/api/llm?id=${id}`, { main_text: `${story.main_text}\nA private line.` }).expect(200);
    expect((await exportAs(bob, { format: 'txt', story_id: id })).body.toString('utf8')).toBe(story.main_text);
  });

  it("states a WebP picture (which Word cannot hold) in a docx export, in the story's language; html keeps it", async () => {
    const id = await createStory(t, alice, { prologue_and_characters: '玛拉：渡轮驾驶员。\n夜里，玛拉在码头等船。' });
    stub.set({ images: { mode: 'webp' } });
    await playTurn(alice, id, '我朝渡轮挥手。');
    await drain();
    const [picture] = await list(alice, id);
    expect(picture).toMatchObject({ status: 'ready', cost: PRICE });
    const story = (await as(t, alice).get(`/api/llm?id=${id}`)).body.data;
    // Asked from an English screen: the note is in the story's language all the same.
    const docx = await exportFile(t, alice, { content: story.main_text, format: 'docx', story_id: id, language: 'en' });
    expect(docx.status).toBe(200);
    expect((await unzip(docx.body as Buffer)).filter((e) => e.name.startsWith('word/media/'))).toEqual([]);
    const paragraphs = await docxParagraphs(docx.body as Buffer);
    const last = paragraphs.findIndex((p) => p.text.includes('故事继续向前'));
    expect(last).toBe(paragraphs.length - 2);
    expect(paragraphs[last + 1]).toEqual({ text: '［此处的配图未放入：Word 文档无法容纳它的格式（WebP）。导出为 HTML 可以看到它。］', picture: false });
    const html = (await exportFile(t, alice, { content: story.main_text, format: 'html', story_id: id })).body.toString('utf8');
    expect(html).toContain('<img src="data:image/webp;base64,UklGR');
  });

  it('keeps picture files in GridFS (pictures.files / pictures.chunks), in chunks, and deletes them', async () => {
    const store = t.app.get(PictureFileRepository);
    const id = '65f0c0ffee0123456789abcd';
    const data = Buffer.alloc(600_000, 7);
    data.write('a picture', 100_000);
    await store.put(id, data, { storyId: 's', userID: 'u', contentType: 'image/png', width: 1, height: 1, demo: false });
    const db = t.connection.db!;
    const file = await db.collection(`${PICTURE_BUCKET}.files`).findOne({});
    expect(file).toMatchObject({ length: 600_000, chunkSize: 255 * 1024, filename: `${id}.png`, metadata: { contentType: 'image/png' } });
    expect(await db.collection(`${PICTURE_BUCKET}.chunks`).countDocuments({})).toBe(3);
    expect((await store.get(id))!.data.equals(data)).toBe(true);
    await store.delete(id);
    expect(await store.get(id)).toBeNull();
    expect(await db.collection(`${PICTURE_BUCKET}.chunks`).countDocuments({})).toBe(0);
  });
});
