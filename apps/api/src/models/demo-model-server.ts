import type { IncomingMessage, ServerResponse } from 'node:http';
import { demoCharacterSheet, demoPicturePrompt } from './demo-picture-prose';
import { demoContinuation, demoSummary, detectLanguage, pickName, seededRandom } from './demo-prose';
import { startLocalServer, type LocalServer } from './local-server';
import { demoJudgement, demoTaskGroups } from './demo-tasks';

export type DemoModelServer = LocalServer;

interface ChatBody {
  messages?: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
}

/**
 * The offline demo model: a tiny OpenAI-compatible chat-completions server on 127.0.0.1, so the demo
 * goes through exactly the same SDK path as a real provider. It writes in the story's language.
 */
export function startDemoModelServer(chunkDelayMs: number): Promise<DemoModelServer> {
  let calls = 0;
  return startLocalServer((req, res) => handle(req, res, chunkDelayMs, ++calls));
}

async function handle(req: IncomingMessage, res: ServerResponse, delayMs: number, call: number): Promise<void> {
  if (req.method === 'GET' && req.url?.endsWith('/models')) {
    return json(res, 200, { object: 'list', data: [{ id: 'taleloom-demo', object: 'model', owned_by: 'taleloom' }] });
  }
  if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
    return json(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
  }
  let body: ChatBody;
  try {
    body = JSON.parse(await readBody(req)) as ChatBody;
  } catch {
    return json(res, 400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
  }
  const text = answer(body.messages ?? [], call);
  const id = `chatcmpl-demo-${call}`;
  const created = Math.floor(Date.now() / 1000);
  const completionTokens = Math.ceil(text.length / 4);
  const promptTokens = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  if (!body.stream) {
    return json(res, 200, {
      id, object: 'chat.completion', created, model: 'taleloom-demo',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  let closed = false;
  res.on('close', () => (closed = true));
  const send = (payload: object) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
  const chunk = (delta: object, finish: string | null = null) =>
    send({ id, object: 'chat.completion.chunk', created, model: 'taleloom-demo', choices: [{ index: 0, delta, finish_reason: finish }] });
  chunk({ role: 'assistant', content: '' });
  for (const piece of pieces(text)) {
    if (closed) return;
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    chunk({ content: piece });
  }
  chunk({}, 'stop');
  send({ id, object: 'chat.completion.chunk', created, model: 'taleloom-demo', choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } });
  res.end('data: [DONE]\n\n');
}

function answer(messages: { role: string; content: string }[], call: number): string {
  const all = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const language = detectLanguage(all);
  // Fold requests carry the text to condense in <new-text> (see play/context/summary-prompt.ts).
  const fold = /<new-text>([\s\S]*?)<\/new-text>/.exec(all);
  if (fold) {
    const previous = /<previous-summary>([\s\S]*?)<\/previous-summary>/.exec(all)?.[1] ?? '';
    return demoSummary(previous, fold[1], language);
  }
  // Picture requests carry the passage in <passage> (see pictures/picture-prompt.ts).
  const passage = /<passage>([\s\S]*?)<\/passage>/.exec(all);
  if (passage) {
    if (all.includes('<sheet-request>')) return demoCharacterSheet(/<characters>([\s\S]*?)<\/characters>/.exec(all)?.[1] ?? '', passage[1]);
    return demoPicturePrompt(passage[1]);
  }
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const random = seededRandom(hash(all) ^ (call * 2654435761));
  // Task requests (see tasks/task-prompts.ts): the story is in <story-text>, targets to judge are numbered.
  const story = /<story-text>\n?([\s\S]*?)\n?<\/story-text>/.exec(lastUser)?.[1] ?? '';
  const storyLanguage = detectLanguage(story || all);
  if (lastUser.includes('<task-groups-request')) return demoTaskGroups(storyLanguage, random);
  const scoring = /<targets-to-score>\n([\s\S]*?)\n<\/targets-to-score>/.exec(lastUser);
  if (scoring) {
    const titles = scoring[1].split('\n').map((l) => l.replace(/^\d+\. \[\w+\] /, ''));
    return demoJudgement(storyLanguage, story, titles);
  }
  const text = demoContinuation(language, pickName(lastUser, language), random);
  return language === 'zh' ? text : ` ${text}`.trimStart();
}

// Two to four words (or characters, in Chinese) per chunk, like a real model's tokens.
function* pieces(text: string): Generator<string> {
  const parts = text.match(/[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]{1,3}|\s*[^\s\u3400-\u9fff]+\s*/g) ?? [text];
  for (let i = 0; i < parts.length; i += 2) yield parts.slice(i, i + 2).join('');
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = Math.max(0, text.length - 2000); i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

function json(res: ServerResponse, status: number, payload: object): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(payload));
}
