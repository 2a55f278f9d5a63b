import { ErrorCode, UPLOAD_MAX_BYTES, type ExportDto, type LoginDto } from '@taleloom/contracts';
import * as iconv from 'iconv-lite';
import { PNG } from 'pngjs';
import request from 'supertest';
import { SAMPLES } from '../src/files/parsers/encoding-samples';
import { cardText, makeDocx, makeExecutable, makePng, makeRtf, pngChunk, unzip, zip } from './file-factories';
import { createTestApp, type TestApp } from './test-app';

const STORY = '第一章 雨夜\n“你来了。”她说。\n\nThe rain did not stop; 雨一直下。\n\t缩进 & <b>not bold</b>';

describe('files (POST /api/upload_parse, POST /api/export)', () => {
  let t: TestApp;
  let token: string;
  const http = () => request(t.app.getHttpServer());
  const upload = (data: Buffer, name: string, language?: string) => {
    const req = http().post('/api/upload_parse').set('Authorization', `Bearer ${token}`);
    if (language) req.field('language', language);
    return req.attach('file', data, name);
  };
  const exportAs = (body: ExportDto) =>
    http()
      .post('/api/export')
      .set('Authorization', `Bearer ${token}`)
      .send(body)
      .buffer(true)
      .parse((res, cb) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => cb(null, Buffer.concat(parts)));
      });
  // After every bad input the server must still answer.
  const stillServing = async () => expect((await http().get('/api/health')).status).toBe(200);

  beforeAll(async () => {
    t = await createTestApp();
    const res = await http().post('/api/user/login').send({ type: 'username', userName: 'writer', password: 'secret1' } satisfies LoginDto);
    token = res.body.data.token;
  });
  afterAll(() => t.close());

  describe('text files', () => {
    it.each([
      ['UTF-8', Buffer.from(STORY, 'utf8'), 'UTF-8'],
      ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(STORY, 'utf8')]), 'UTF-8'],
      ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(STORY, 'utf16le')]), 'UTF-16LE'],
      ['UTF-16BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(STORY, 'utf16be')]), 'UTF-16BE'],
      ['GBK', iconv.encode(STORY, 'gbk'), 'GB18030'],
    ])('reads %s', async (_label, data, encoding) => {
      const res = await upload(data, '故事.txt');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ content: STORY, kind: 'text', encoding, fileName: '故事.txt', characters: STORY.length });
    });

    // Every common encoding of Chinese (Simplified, Traditional, Cantonese with HKSCS characters), and
    // of Japanese and Korean, short and long, without a BOM: the upload reads back exactly the text.
    const encoded = Object.entries(SAMPLES).flatMap(([name, sample]) =>
      sample.encodings.flatMap((encoding) => [[`${name} short`, encoding, sample.short] as const, [`${name} long`, encoding, sample.long] as const]),
    );
    it.each(encoded)('reads %s in %s', async (_name, encoding, text) => {
      const res = await upload(iconv.encode(text, encoding), '故事.txt');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ content: text, kind: 'text', characters: text.length });
    });

    it('reads UTF-16 without a BOM (mostly Latin text) and GB18030 text of many lines', async () => {
      const latin = 'Once upon a time, in a quiet town, a story began.\nChapter two.';
      const le = await upload(iconv.encode(latin, 'utf16le'), 'a.txt');
      expect(le.body.data).toMatchObject({ content: latin, encoding: 'UTF-16LE' });
      const be = await upload(iconv.encode(latin, 'utf16be'), 'a.txt');
      expect(be.body.data).toMatchObject({ content: latin, encoding: 'UTF-16BE' });
      const long = Array.from({ length: 200 }, (_, i) => `第${i + 1}段：少年推开门，风雪扑面而来。`).join('\r\n');
      const gb = await upload(iconv.encode(long, 'gb18030'), 'long.md');
      expect(gb.body.data).toMatchObject({ content: long.replace(/\r\n/g, '\n'), kind: 'markdown', encoding: 'GB18030' });
    });
  });

  describe('docx, rtf', () => {
    it('reads a docx made by the docx library', async () => {
      const res = await upload(await makeDocx(['第一段', '', 'Second paragraph']), 'story.docx');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ content: '第一段\n\nSecond paragraph', kind: 'docx' });
    });

    it('reads RTF with code pages (936, 1252, 1251), \\uN with \\uc skipping, escapes, and skips tables and \\* groups', async () => {
      const res = await upload(makeRtf(), 'old.rtf');
      expect(res.status).toBe(200);
      expect(res.body.data.content).toBe('第一章 雨夜\nCafé costs € 5 {ok}\n星空 的\nПривет\tend');
      expect(res.body.data.content).not.toMatch(/Secret|Riched|Arial|宋体/);
    });

    it('refuses an RTF nested too deeply with the parser\'s own coded reason, small or large (read on the text thread)', async () => {
      const deep = `{\\rtf1 ${'{'.repeat(600)}deep${'}'.repeat(601)}`;
      for (const rtf of [deep, `${deep.slice(0, -1)}${' text'.repeat(20_000)}}`]) {
        const res = await upload(Buffer.from(rtf, 'latin1'), 'deep.rtf');
        expect(res.status).toBe(422);
        expect(res.body.code).toBe(ErrorCode.FILE_PARSE_FAILED);
        expect(res.body.details[0]).toEqual({ field: 'file', constraints: ['RTF groups are nested too deeply'] });
      }
      await stillServing();
    });
  });

  describe('PNG character cards', () => {
    const v2 = {
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        name: '林月',
        description: '{{char}} is a swordswoman who guards <USER>.',
        personality: '冷静',
        scenario: '江湖客栈',
        first_mes: '{{char}}抬起头：“{{user}}，你终于来了。”',
        mes_example: '<START>\r\n{{user}}: hi\r\n{{char}}: ...\r\n<START>\r\n{{user}}: bye\r\n{{char}}: farewell',
        system_prompt: '',
        alternate_greetings: ['她拔剑。'],
        character_book: { entries: [{ keys: ['青锋剑'], content: '一把古剑', enabled: true }, { keys: ['x'], content: 'hidden', enabled: false }] },
        tags: [],
        creator: '',
        character_version: '1',
        extensions: {},
      },
    };

    it('turns a V2 card into settings text with the opening last, macros replaced, in the request language, and its book into lore', async () => {
      const res = await upload(makePng([{ keyword: 'chara', text: cardText(v2) }]), 'card.png', 'zh-CN');
      expect(res.status).toBe(200);
      expect(res.body.data.card).toEqual({ name: '林月', spec: 'v2' });
      expect(res.body.data.kind).toBe('character_card');
      const text: string = res.body.data.content;
      expect(text).toContain('林月 is a swordswoman who guards {{user}}.');
      // The card's book comes in as lore entries (a disabled one disabled), not as prologue text.
      expect(text).not.toContain('世界设定');
      expect(text).not.toContain('一把古剑');
      expect(res.body.data.lore.entries).toEqual([
        expect.objectContaining({ title: '青锋剑', keys: ['青锋剑'], content: '一把古剑', enabled: true }),
        expect.objectContaining({ title: 'x', keys: ['x'], content: 'hidden', enabled: false }),
      ]);
      expect(text).toContain('1. 她拔剑。');
      // Example dialogue reads as text: no <START> markers, each example numbered, line endings \n.
      expect(text).toContain('【对话示例】\n1.\n{{user}}: hi\n林月: ...\n\n2.\n{{user}}: bye\n林月: farewell');
      expect(text).not.toContain('<START>');
      expect(text).not.toContain('\r');
      expect(text.endsWith('【开场白】\n林月抬起头：“{{user}}，你终于来了。”')).toBe(true);
      const en = await upload(makePng([{ keyword: 'chara', text: cardText(v2) }]), 'card.png', 'en');
      expect(en.body.data.content).toContain('[Personality]\n冷静');
      expect(en.body.data.content).not.toContain('【');
    });

    it('reads V1 fields at the top level', async () => {
      const v1 = { name: 'Bob', description: 'A <BOT> of few words.', personality: 'gruff', scenario: 'tavern', first_mes: 'Hm.', mes_example: '' };
      const res = await upload(makePng([{ keyword: 'chara', text: cardText(v1) }]), 'bob.png');
      expect(res.body.data.card).toEqual({ name: 'Bob', spec: 'v1' });
      expect(res.body.data.content).toContain('A Bob of few words.');
    });

    it('prefers ccv3 over chara', async () => {
      const v3 = { spec: 'chara_card_v3', spec_version: '3.0', data: { ...v2.data, name: 'Luna', nickname: 'L', assets: [], group_only_greetings: [] } };
      const png = makePng([{ keyword: 'chara', text: cardText(v2) }, { keyword: 'ccv3', text: cardText(v3) }]);
      const res = await upload(png, 'card.png');
      expect(res.body.data.card).toEqual({ name: 'Luna', spec: 'v3' });
      expect(res.body.data.content).toContain('Luna is a swordswoman');
    });

    it('falls back to chara when ccv3 is not valid base64 JSON', async () => {
      const png = makePng([{ keyword: 'ccv3', text: '!!not base64 json!!' }, { keyword: 'chara', text: cardText(v2) }]);
      const res = await upload(png, 'card.png');
      expect(res.body.data.card.spec).toBe('v2');
    });

    it('answers 422 CHARACTER_CARD_MISSING for a plain PNG', async () => {
      const res = await upload(makePng(), 'photo.png');
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(ErrorCode.CHARACTER_CARD_MISSING);
    });
  });

  describe('bad input: a clear error with a code, and the server keeps serving', () => {
    const card = () => makePng([{ keyword: 'chara', text: cardText({ name: 'X', description: 'y' }) }]);

    it('refuses a renamed executable', async () => {
      for (const name of ['story.txt', 'story.docx', 'card.png', 'a.rtf']) {
        const res = await upload(makeExecutable(), name);
        expect(res.status).toBe(415);
        expect(res.body.code).toBe(ErrorCode.FILE_TYPE_UNSUPPORTED);
      }
      const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(200, 0x41)]);
      expect((await upload(elf, 'story.md')).body.code).toBe(ErrorCode.FILE_TYPE_UNSUPPORTED);
      // Text that merely starts like a signature is still text.
      const text = await upload(Buffer.from('MZ is the name of the ship.\n她出发了。'), 'ship.txt');
      expect(text.body.data?.content).toBe('MZ is the name of the ship.\n她出发了。');
      await stillServing();
    });

    it('refuses names outside the list and binary noise named .txt', async () => {
      const exe = await upload(Buffer.from('hello'), 'run.exe');
      expect(exe.body.code).toBe(ErrorCode.FILE_TYPE_UNSUPPORTED);
      const noise = Buffer.alloc(2048);
      for (let i = 0; i < noise.length; i++) noise[i] = (i * 31 + 7) % 256;
      const res = await upload(noise, 'noise.txt');
      expect(res.body.code).toBe(ErrorCode.FILE_TYPE_UNSUPPORTED);
      const plainZip = await upload(zip([{ name: 'a.txt', data: Buffer.from('x') }]), 'a.docx');
      expect(plainZip.body.code).toBe(ErrorCode.FILE_TYPE_UNSUPPORTED);
      await stillServing();
    });

    it('refuses a truncated PNG', async () => {
      const png = card();
      for (const cut of [20, png.length - 30, png.length - 1]) {
        const res = await upload(png.subarray(0, cut), 'card.png');
        expect(res.status).toBe(422);
        expect(res.body.code).toBe(ErrorCode.FILE_PARSE_FAILED);
      }
      await stillServing();
    });

    it('refuses a PNG with a broken CRC and one with a huge chunk', async () => {
      const broken = Buffer.from(card());
      const textAt = broken.indexOf('tEXt');
      broken[textAt + 6] ^= 0xff;
      const bad = await upload(broken, 'card.png');
      expect(bad.status).toBe(422);
      expect(bad.body.details[0].constraints[0]).toMatch(/CRC/);

      const plain = makePng();
      const iend = plain.length - 12;
      const hugeHeader = Buffer.alloc(8);
      hugeHeader.writeUInt32BE(0x7fffff00, 0);
      hugeHeader.write('tEXt', 4, 'latin1');
      const huge = Buffer.concat([plain.subarray(0, iend), hugeHeader, Buffer.from('chara\0abc'), plain.subarray(iend)]);
      const res = await upload(huge, 'card.png');
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(ErrorCode.FILE_PARSE_FAILED);

      const bigButWhole = Buffer.concat([plain.subarray(0, iend), pngChunk('zzZz', Buffer.alloc(64)), plain.subarray(iend)]);
      expect((await upload(bigButWhole, 'card.png')).body.code).toBe(ErrorCode.CHARACTER_CARD_MISSING);
      await stillServing();
    });

    it('refuses a docx zip bomb by its declared size, before parsing', async () => {
      const entries = await unzip(await makeDocx(['bomb']));
      const zeros = Buffer.alloc(110 * 1024 * 1024);
      const bomb = zip([...entries, { name: 'word/media/bomb.bin', data: zeros }]);
      expect(bomb.length).toBeLessThan(UPLOAD_MAX_BYTES);
      const res = await upload(bomb, 'bomb.docx');
      expect(res.status).toBe(413);
      expect(res.body.code).toBe(ErrorCode.FILE_CONTENT_TOO_LARGE);
      // The same bomb lying about its size is caught while inflating.
      const liar = zip([...entries, { name: 'word/media/bomb.bin', data: zeros, declaredSize: 1000 }]);
      const res2 = await upload(liar, 'bomb.docx');
      expect([413, 422]).toContain(res2.status);
      await stillServing();
    }, 20_000);

    it('refuses a damaged docx', async () => {
      const docx = await makeDocx(['x']);
      const res = await upload(docx.subarray(0, docx.length - 40), 'cut.docx');
      expect(res.status).toBe(422);
      expect(res.body.code).toBe(ErrorCode.FILE_PARSE_FAILED);
    });

    it('refuses 10 MB + 1 byte with FILE_TOO_LARGE and takes exactly 10 MB', async () => {
      const res = await upload(Buffer.alloc(UPLOAD_MAX_BYTES + 1, 0x61), 'big.txt');
      expect(res.status).toBe(413);
      expect(res.body.code).toBe(ErrorCode.FILE_TOO_LARGE);
      const zh = await upload(Buffer.alloc(UPLOAD_MAX_BYTES + 1, 0x61), 'big.txt', 'zh-CN');
      expect(zh.body.message).toBe('文件大小不能超过 10MB。');
      const exact = await upload(Buffer.alloc(UPLOAD_MAX_BYTES, 0x61), 'big.txt');
      expect(exact.status).toBe(200);
      expect(exact.body.data.characters).toBe(UPLOAD_MAX_BYTES);
      await stillServing();
    });

    it('refuses an empty file, a blank file and a request without a file', async () => {
      for (const data of [Buffer.alloc(0), Buffer.from(' \n\n ')]) {
        const res = await upload(data, 'empty.txt');
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(ErrorCode.FILE_EMPTY);
      }
      const none = await http().post('/api/upload_parse').set('Authorization', `Bearer ${token}`).field('language', 'en');
      expect(none.status).toBe(400);
      expect(none.body.code).toBe(ErrorCode.FILE_UPLOAD_FAILED);
      const two = await http()
        .post('/api/upload_parse')
        .set('Authorization', `Bearer ${token}`)
        .attach('file', Buffer.from('a'), 'a.txt')
        .attach('file', Buffer.from('b'), 'b.txt');
      expect(two.body.code).toBe(ErrorCode.FILE_UPLOAD_FAILED);
      await stillServing();
    });

    it('needs a login', async () => {
      const res = await http().post('/api/upload_parse').attach('file', Buffer.from('hi'), 'a.txt');
      expect(res.status).toBe(401);
      const exp = await http().post('/api/export').send({ content: 'x', format: 'txt' });
      expect(exp.status).toBe(401);
    });
  });

  describe('export', () => {
    it('names the file with RFC 5987 for a Chinese story name, in the request language', async () => {
      const res = await exportAs({ content: STORY, format: 'txt', name: '雨夜/故事', language: 'zh-CN' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      const cd = res.headers['content-disposition'];
      expect(cd).toMatch(/^attachment; filename="____-_____-\d{8}-\d{6}\.txt"; filename\*=UTF-8''/);
      const star = decodeURIComponent(cd.split("UTF-8''")[1]);
      expect(star).toMatch(/^织梦故事-雨夜_故事-\d{8}-\d{6}\.txt$/);
      expect(res.body.toString('utf8')).toBe(STORY);
      const en = await exportAs({ content: 'x', format: 'markdown' });
      expect(decodeURIComponent(en.headers['content-disposition'].split("UTF-8''")[1])).toMatch(/^TaleLoom-Untitled-\d{8}-\d{6}\.md$/);
    });

    it('escapes HTML and styles it for reading', async () => {
      const res = await exportAs({ content: STORY, format: 'html', name: '<script>x</script>' });
      const html = res.body.toString('utf8');
      expect(html).toContain('<meta charset="utf-8">');
      expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
      expect(html).toContain('<title>&lt;script&gt;x&lt;/script&gt;</title>');
      expect(html).not.toContain('<script>');
      expect(html).toMatch(/line-height: 1\.85/);
      // The page's language is the story's, whatever the screen's.
      expect(html).toContain('<html lang="zh-CN">');
      const english = (await exportAs({ content: 'The rain did not stop.', format: 'html', language: 'zh-CN' })).body.toString('utf8');
      expect(english).toContain('<html lang="en">');
    });

    it('exports Markdown for reading: the title as its heading, each line a paragraph, markup escaped; upload_parse reads it back', async () => {
      const file = await exportAs({ content: `${STORY}\n# not a heading\n1. not a list`, format: 'markdown', name: 'Rain *night*' });
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('text/markdown; charset=utf-8');
      const md = file.body.toString('utf8');
      expect(md).toBe(
        '# Rain \\*night\\*\n\n第一章 雨夜\n\n“你来了。”她说。\n\nThe rain did not stop; 雨一直下。\n\n缩进 & \\<b\\>not bold\\</b\\>\n\n\\# not a heading\n\n1\\. not a list\n',
      );
      const back = await upload(file.body, 's.md');
      expect(back.body.data).toMatchObject({ kind: 'markdown', content: md });
      // A story with no name gets the untitled heading of the request's language.
      expect((await exportAs({ content: 'x', format: 'markdown', language: 'zh-CN' })).body.toString('utf8')).toBe('# 未命名\n\nx\n');
    });

    it('round-trips docx, rtf and txt through upload_parse', async () => {
      for (const [format, name] of [['docx', 's.docx'], ['rtf', 's.rtf'], ['txt', 's.txt']] as const) {
        const file = await exportAs({ content: STORY, format });
        expect(file.status).toBe(200);
        const back = await upload(file.body, name);
        expect({ format, content: back.body.data?.content }).toEqual({ format, content: STORY });
      }
      const emoji = '星 😀 end';
      const rtf = await exportAs({ content: emoji, format: 'rtf' });
      expect((await upload(rtf.body, 'e.rtf')).body.data.content).toBe(emoji);
    });

    it('exports a million characters', async () => {
      const content = '雨'.repeat(999_999) + '\n';
      const res = await exportAs({ content, format: 'txt' });
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(999_999 * 3 + 1);
    });

    it('validates the body', async () => {
      const bad = await http().post('/api/export').set('Authorization', `Bearer ${token}`).send({ content: 'x', format: 'pdf' });
      expect(bad.status).toBe(400);
      expect(bad.body.details[0].field).toBe('format');
      const missing = await http().post('/api/export').set('Authorization', `Bearer ${token}`).send({ format: 'txt' });
      expect(missing.body.details[0].field).toBe('content');
      // With story_id content may be left out, but not be something else than text.
      const notText = await http().post('/api/export').set('Authorization', `Bearer ${token}`).send({ format: 'txt', story_id: 'x', content: 7 });
      expect(notText.body.details[0].field).toBe('content');
    });
  });
});

describe('files and archives in Swagger', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('documents the multipart upload, export and archive endpoints with their DTO schemas', async () => {
    const doc = (await request(t.app.getHttpServer()).get('/api/docs-json')).body;
    const upload = doc.paths['/api/upload_parse'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.file).toEqual(
      expect.objectContaining({ type: 'string', format: 'binary' }),
    );
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['400', '401', '413', '415', '422']));
    expect(doc.paths['/api/export'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/ExportDto');
    expect(doc.components.schemas.ExportDto.properties.format.enum).toEqual(['markdown', 'txt', 'html', 'rtf', 'docx']);
    expect(doc.paths['/api/archive/{storyId}'].get).toBeDefined();
    expect(doc.paths['/api/archive/save'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/SaveArchiveDto');
    expect(doc.components.schemas.SaveArchiveDto.properties.archive_index).toEqual(expect.objectContaining({ minimum: 0, maximum: 998 }));
    expect(doc.paths['/api/archive/load'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/LoadArchiveDto');
  });
});

// pngjs is used here only to prove the fixtures are real PNGs.
test('fixtures are real PNGs', () => {
  expect(PNG.sync.read(makePng([{ keyword: 'chara', text: 'e30=' }])).width).toBe(4);
});
