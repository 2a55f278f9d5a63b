// Fault injection on the way to the model and back: a provider that breaks off, stalls or answers
// garbage, and a browser that goes away mid-stream. After each fault the accepted text is intact,
// nothing is charged twice (a failed turn not at all), balance == ledger, and the story plays on.
import { ErrorCode, type StreamEvent } from '@taleloom/contracts';
import { errorMessage } from '../src/common/error-messages';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config';
import { TurnRunner } from '../src/play/turn.runner';
import { PowerService } from '../src/power/power.service';
import { balanceOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { chargedOf, closesOf, expectLedgerExact } from './support/fault-checks';
import { startOpenAIStub, type OpenAIStub, type StubBehaviour } from './support/openai-stub';
import { listenOnLoopback, sendTurn, storyDoc, textOf, unthrottle } from './support/play-helpers';
import { createTestApp, type TestApp } from './test-app';

const PRICE = 100;
const GRANT = 1000;
const WHOLE = 'Reply 1: The lamp flickered and the story went on.';
const PARTIAL = 'Reply 1: The lamp';
const ACCEPTED = 'Mara: Go\nAn accepted line.';

describe('faults: the provider and the browser', () => {
  let t: TestApp;
  let stub: OpenAIStub;
  let base: string;
  let alice: TestUser;
  const drain = () => t.app.get(TurnRunner).drain();
  // The cases about the provider's timeout wait 1 s for it; every other case has 10 s, so that a loaded
  // machine (a stalled event loop) does not turn a slow stream into a timeout the case is not about.
  const providerTimeout = (seconds: number) => {
    t.app.get<AppConfig>(APP_CONFIG).env.PROVIDER_TIMEOUT_SECONDS = seconds;
  };
  const db = () => t.connection.db!;

  beforeAll(async () => {
    stub = await startOpenAIStub();
    t = await createTestApp({
      MODELS_JSON: JSON.stringify([
        { label: 'Paid', value: 'paid', points: PRICE, contextWindow: 4096, maxOutput: 200, baseURL: stub.baseURL, enableReasoning: true },
      ]),
    });
    base = await listenOnLoopback(t);
  });
  beforeEach(async () => {
    await t.clean();
    providerTimeout(10);
    stub.reset();
    stub.set({ completionTokens: 200 });
    alice = await signUp(t, 'alice');
    await t.app.get(PowerService).grant(alice.userID, GRANT, 'test', 'seed');
  });
  afterAll(async () => {
    await drain();
    await t.close();
    await stub.close();
  });

  // A story with one accepted turn already in its text: the text a fault must never touch.
  async function storyWithAcceptedText(): Promise<string> {
    const id = await createStory(t, alice);
    await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Mara: Go', newContent: 'An accepted line.' });
    expect((await storyDoc(t, id))!.main_text).toMatch(/Mara: Go\nAn accepted line\.$/);
    return id;
  }

  // The story plays on after the fault: the next send streams, is stored and is charged once.
  async function playsOn(id: string, chargedBefore: number): Promise<void> {
    providerTimeout(10);
    stub.set({ completionTokens: 200 });
    await unthrottle(t, id);
    const again = await sendTurn(base, alice.token, id, { content: 'Again', regenerate: true });
    expect(again.events.at(-1)).toEqual({ type: 'done', turnId: expect.any(String) });
    await drain();
    expect(await chargedOf(db(), alice.userID)).toBe(chargedBefore + PRICE);
    expect(await balanceOf(t, alice.userID)).toBe(GRANT - chargedBefore - PRICE);
    expect((await storyDoc(t, id))!.main_text).toContain(ACCEPTED);
    await expectLedgerExact(db());
  }

  const HTML_PAGE = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';
  const cases: Array<[string, StubBehaviour, ErrorCode, string]> = [
    ['drops the connection mid-stream (socket destroyed)', { failAfter: 3, failMode: 'destroy' }, ErrorCode.PROVIDER_ERROR, PARTIAL],
    ['sends an SSE line that is not JSON', { failAfter: 3, failMode: 'non-json' }, ErrorCode.PROVIDER_ERROR, PARTIAL],
    ['ends the body in the middle of a JSON line', { failAfter: 3, failMode: 'truncated-json' }, ErrorCode.PROVIDER_ERROR, PARTIAL],
    ['ends the body early with no finish_reason', { failAfter: 3, failMode: 'cut' }, ErrorCode.PROVIDER_ERROR, PARTIAL],
    ['sends an error event mid-stream', { failAfter: 3, failMode: 'error-event' }, ErrorCode.PROVIDER_ERROR, PARTIAL],
    ['answers 502 with an HTML error page', { httpStatus: 502, httpContentType: 'text/html', httpBody: HTML_PAGE }, ErrorCode.PROVIDER_ERROR, ''],
    ['answers 200 with an HTML page instead of a stream', { httpStatus: 200, httpContentType: 'text/html', httpBody: HTML_PAGE }, ErrorCode.PROVIDER_ERROR, ''],
    ['answers 200 with a JSON error instead of a stream', { httpStatus: 200, httpBody: '{"error":"overloaded"}' }, ErrorCode.PROVIDER_ERROR, ''],
    ['says nothing past the first-token timeout', { firstDelayMs: 3000 }, ErrorCode.PROVIDER_TIMEOUT, ''],
    ['goes quiet mid-stream past the idle timeout', { stallAfter: 3 }, ErrorCode.PROVIDER_TIMEOUT, PARTIAL],
    ['keeps a stalled stream warm with SSE comments', { stallAfter: 3, stallWith: 'comments' }, ErrorCode.PROVIDER_TIMEOUT, PARTIAL],
    ['keeps a stalled stream warm with chunks that carry no text', { stallAfter: 3, stallWith: 'empty-chunks' }, ErrorCode.PROVIDER_TIMEOUT, PARTIAL],
  ];

  it.each(cases)('the provider %s: partial text kept, nothing charged, a coded error, then it plays on', async (_name, behaviour, code, partial) => {
    const id = await storyWithAcceptedText();
    if (code === ErrorCode.PROVIDER_TIMEOUT) providerTimeout(1);
    stub.set({ ...behaviour, completionTokens: 200 });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Go', language: 'zh-CN' });
    expect(res.status).toBe(200);
    expect(textOf(res.events)).toBe(partial);
    // The user is told why, in their language, with no provider detail (no HTML, no stack).
    expect(res.events.at(-1)).toEqual({ type: 'error', code, message: errorMessage(code, 'zh-CN') });
    expect(res.events.some((e) => e.type === 'done')).toBe(false);
    await drain();
    const pending = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(pending.body.data).toMatchObject({ state: 'failed', aiText: partial, errorCode: code, cost: 0 });
    expect(await balanceOf(t, alice.userID)).toBe(GRANT);
    expect((await closesOf(db(), alice.userID)).map((c) => [c.kind, c.state])).toEqual([['release', 'applied']]);
    expect((await storyDoc(t, id))!.main_text).toMatch(/Mara: Go\nAn accepted line\.$/);
    await expectLedgerExact(db());
    await playsOn(id, 0);
  });

  it('a good stream labelled with the wrong content type still plays and is charged once', async () => {
    const id = await storyWithAcceptedText();
    stub.set({ streamContentType: 'text/plain', completionTokens: 200 });
    const res = await sendTurn(base, alice.token, id, { content: 'Go' });
    expect(textOf(res.events)).toBe(WHOLE);
    expect(res.events.at(-1)?.type).toBe('done');
    await drain();
    expect(await chargedOf(db(), alice.userID)).toBe(PRICE);
    await expectLedgerExact(db());
  });

  // The browser goes away (the client aborts the fetch) at different points of the stream.
  const aborts: Array<[string, StubBehaviour, number]> = [
    ['right after the user part, before any text', { delayMs: 30, firstDelayMs: 100 }, 1],
    ['in the middle of the text', { delayMs: 30 }, 4],
    ['while the model is still reasoning', { delayMs: 30, reasoning: ['Thinking', ' hard', ' about', ' it.'] }, 2],
  ];

  it.each(aborts)('the browser leaves %s: the turn finishes, is stored, charged once and shown on reopening', async (_name, behaviour, stopAfter) => {
    const id = await storyWithAcceptedText();
    stub.set({ ...behaviour, completionTokens: 200 });
    const res = await sendTurn(base, alice.token, id, { role: 'Mara', content: 'Go' }, stopAfter);
    expect(res.events).toHaveLength(stopAfter);
    expect(res.events.some((e: StreamEvent) => e.type === 'done')).toBe(false);
    await drain();
    const reopened = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(reopened.body.data).toMatchObject({ state: 'done', userText: 'Mara: Go', aiText: WHOLE, cost: PRICE });
    expect(await chargedOf(db(), alice.userID)).toBe(PRICE);
    expect(await balanceOf(t, alice.userID)).toBe(GRANT - PRICE);
    expect(stub.requests).toBe(1);
    await expectLedgerExact(db());
    // Accepting it later appends it after the text accepted before.
    await as(t, alice).post(`/api/llm/${id}/accept`, { userContent: 'Mara: Go', newContent: WHOLE, turnId: reopened.body.data.turnId });
    expect((await storyDoc(t, id))!.main_text).toMatch(/Mara: Go\nAn accepted line\.\nMara: Go\nReply 1: The lamp flickered and the story went on\.$/);
  });

  it('the browser leaves and then the provider breaks off: partial text kept, nothing charged', async () => {
    const id = await storyWithAcceptedText();
    stub.set({ delayMs: 30, failAfter: 5, failMode: 'destroy', completionTokens: 200 });
    await sendTurn(base, alice.token, id, { content: 'Go' }, 2);
    await drain();
    const reopened = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(reopened.body.data).toMatchObject({ state: 'failed', aiText: 'Reply 1: The lamp flickered and', errorCode: ErrorCode.PROVIDER_ERROR, cost: 0 });
    expect(await balanceOf(t, alice.userID)).toBe(GRANT);
    await expectLedgerExact(db());
    await playsOn(id, 0);
  });
});
