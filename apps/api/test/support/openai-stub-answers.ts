// What the OpenAI stub (openai-stub.ts) answers: the default reply, the task answers (suggestions and
// scoring) and the pictures.
import { deflateSync } from 'node:zlib';
import type { StubRequestBody } from './openai-stub-behaviour';
import { pngChunk } from './png-chunk';

// A real 1x1 lossless WebP.
export const STUB_WEBP = 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';

export const lastUser = (body: StubRequestBody) =>
  [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';

/** The default reply: numbered, so a regenerate is visibly different. */
export function defaultStubChunks(body: StubRequestBody, n: number): string[] {
  const all = (body.messages ?? []).map((m) => m.content).join('\n');
  const fold = /<new-text>([\s\S]*?)<\/new-text>/.exec(all);
  if (fold) return [`Summary ${n}: `, `${fold[1].trim().split(/\s+/).slice(0, 8).join(' ')} …`];
  const task = stubTaskAnswer(body);
  if (task !== null) return pieces(task, 40);
  const zh = /[\u3400-\u9fff]/.test(lastUser(body));
  return zh
    ? [`第${n}段回复：`, '灯光', '闪了', '一下，', '故事', '继续', '向前。']
    : [`Reply ${n}:`, ' The', ' lamp', ' flickered', ' and', ' the', ' story', ' went', ' on.'];
}

// Task requests (apps/api/src/tasks/task-prompts.ts) carry these tags; the stub answers them with JSON.
const TASK_TAGS = { groups: '<task-groups-request', score: '<targets-to-score>', story: /<story-text>\n?([\s\S]*?)\n?<\/story-text>/ };
export const MALFORMED_TASK_ANSWER = 'Sure! Here are some ideas: {"groups": [{"series_name": "Unfinished", "targets": [';

export const isTaskRequest = (body: StubRequestBody) => {
  const all = lastUser(body);
  return all.includes(TASK_TAGS.groups) || all.includes(TASK_TAGS.score);
};

export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

type StubTarget = [title: string, type: 'reality' | 'emotion', score: number, probability: number];
const STUB_GROUPS: Record<'en' | 'zh', { series_name: string; main_character: string; targets: StubTarget[] }[]> = {
  en: [
    { series_name: 'Harbour secrets', main_character: 'Mara', targets: [['Find the lighthouse key', 'reality', 2, 60], ["Earn the harbour master's trust", 'emotion', 1, 70]] },
    { series_name: 'Before the storm', main_character: 'Mara', targets: [['Reach the island before the storm', 'reality', 3, 35]] },
    { series_name: 'Old debts', main_character: 'Mara', targets: [["Pay back the smuggler's debt", 'reality', 2, 50], ['Forgive her brother', 'emotion', 3, 30]] },
  ],
  zh: [
    { series_name: '港口的秘密', main_character: '玛拉', targets: [['找到灯塔钥匙', 'reality', 2, 60], ['赢得港务长的信任', 'emotion', 1, 70]] },
    { series_name: '风暴之前', main_character: '玛拉', targets: [['在风暴来临前抵达小岛', 'reality', 3, 35]] },
    { series_name: '旧债', main_character: '玛拉', targets: [['还清欠走私者的债', 'reality', 2, 50], ['原谅她的哥哥', 'emotion', 3, 30]] },
  ],
};

/**
 * The stub's answer to a task request, or null for other requests. Suggestions: three fixed groups in
 * the story's language. Scoring: a target is completed when a line of the story contains its title
 * (that line is quoted as the evidence); otherwise it stays open. Both come in a ```json fence.
 */
export function stubTaskAnswer(body: StubRequestBody): string | null {
  const prompt = lastUser(body);
  const story = TASK_TAGS.story.exec(prompt)?.[1] ?? '';
  const zh = /[\u3400-\u9fff]/.test(story || prompt);
  if (prompt.includes(TASK_TAGS.groups)) {
    const groups = STUB_GROUPS[zh ? 'zh' : 'en'].map((g) => ({
      ...g,
      targets: g.targets.map(([title, type, score, probability]) => ({ title, type, score, probability })),
    }));
    return `\`\`\`json\n${JSON.stringify({ groups }, null, 1)}\n\`\`\``;
  }
  if (!prompt.includes(TASK_TAGS.score)) return null;
  const list = prompt.slice(prompt.indexOf(TASK_TAGS.score));
  const lines = story.split(/\n+/).map((l) => l.trim()).filter(Boolean);
  const targets = [...list.matchAll(/^(\d+)\. \[(\w+)\] (.+)$/gm)].map(([, index, , title]) => {
    const line = lines.find((l) => l.toLowerCase().includes(title.trim().toLowerCase()));
    return line
      ? { index: Number(index), completed: true, evidence: line, reason: zh ? '正文写到了这件事。' : 'The story shows it.', probability: 100 }
      : { index: Number(index), completed: false, evidence: '', reason: zh ? '还没有发生。' : 'It has not happened yet.', probability: 40 };
  });
  return `Here is my judgement:\n\`\`\`json\n${JSON.stringify({ targets })}\n\`\`\``;
}

/**
 * A real PNG (8-bit RGB, filter 0 rows, deflated by node:zlib) of the asked size: a colour gradient that
 * differs per request number, so two pictures are not the same bytes.
 */
export function stubPng(width: number, height: number, n = 1): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255) / Math.max(1, width - 1);
      raw[row + 2 + x * 3] = (y * 255) / Math.max(1, height - 1);
      raw[row + 3 + x * 3] = (n * 53) & 255;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
