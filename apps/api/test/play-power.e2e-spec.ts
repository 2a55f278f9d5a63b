import { ErrorCode, type SendTurnDto } from '@taleloom/contracts';
import { AppException } from '../src/common/app-exception';
import { PowerService } from '../src/power/power.service';
import { verifyLedger } from '../src/power/verify-ledger';
import { balanceOf, entriesOf } from './power-factories';
import { as, createStory, signUp, type TestUser } from './story-factories';
import { sendTurn, storyDoc, unthrottle } from './support/play-helpers';
import { playSuite } from './support/play-suite';
import type { OpenAIStub } from './support/openai-stub';
import type { TestApp } from './test-app';

describe('play: what a send costs and when it is refused before the provider (throttle, power, holds, royalty)', () => {
  const suite = playSuite();
  const { drain, grant } = suite;
  let t: TestApp, stub: OpenAIStub, base: string, alice: TestUser;
  beforeEach(() => void ({ t, stub, base, alice } = suite));

  it('a send with the edited pending turn that is refused (too little power) accepts nothing: the turn stays pending', async () => {
    const id = await createStory(t, alice, { prologue_and_characters: 'Start.' });
    const first = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'free' });
    const turnId = first.events.find((e) => e.type === 'done')!.turnId as string;
    await unthrottle(t, id);
    const refused = await as(t, alice)
      .post(`/api/llm/${id}`)
      .send({ content: 'Next', model_name: 'stub', accept: { turnId, userContent: 'Go', newContent: 'Edited.' } } satisfies SendTurnDto);
    expect(refused.status).toBe(402);
    expect((await storyDoc(t, id))!.main_text).toBe('Start.');
    const pending = await as(t, alice).get(`/api/llm/${id}/pending`);
    expect(pending.body.data).toMatchObject({ state: 'done', turnId });
  });

  it('allows one send per second and none while generating, and says so before calling the provider', async () => {
    const id = await createStory(t, alice);
    stub.set({ delayMs: 150 });
    const running = sendTurn(base, alice.token, id, { content: 'slow', model_name: 'free' });
    await new Promise((r) => setTimeout(r, 100));
    const busy = await sendTurn(base, alice.token, id, { content: 'again', model_name: 'free' });
    expect(busy.status).toBe(409);
    expect(busy.body!.code).toBe(ErrorCode.GENERATION_IN_PROGRESS);
    const undoWhileBusy = await as(t, alice).post(`/api/llm/${id}/discard`);
    expect(undoWhileBusy.status).toBe(409);
    await running;
    stub.set({});
    const fast = await sendTurn(base, alice.token, id, { content: 'too soon', model_name: 'free', regenerate: true });
    expect(fast.status === 429 || fast.status === 200).toBe(true);
    if (fast.status === 429) expect(fast.body!.code).toBe(ErrorCode.SEND_TOO_FAST);
    const story2 = await createStory(t, alice);
    const a = await sendTurn(base, alice.token, story2, { content: 'one', model_name: 'free' });
    const b = await sendTurn(base, alice.token, story2, { content: 'two', model_name: 'free', regenerate: true });
    expect(a.status).toBe(200);
    expect(b.status).toBe(429);
    expect(b.body).toEqual({ status: 'error', code: ErrorCode.SEND_TOO_FAST, message: 'You are sending too fast. Please wait a second.' });
    expect(stub.requests).toBe(fast.status === 200 ? 3 : 2);
  });

  it('answers NOT_ENOUGH_POWER before the provider is called, claiming nothing', async () => {
    const id = await createStory(t, alice);
    const res = await sendTurn(base, alice.token, id, { content: 'Go', language: 'zh-CN' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ status: 'error', code: ErrorCode.NOT_ENOUGH_POWER, message: '电量不足，请获取电量。' });
    expect(stub.requests).toBe(0);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'idle', retryAfterMs: 0 });
    // With power it goes through at once (the refusal did not count as a send).
    await grant(alice, 100);
    expect((await sendTurn(base, alice.token, id, { content: 'Go' })).status).toBe(200);
  });

  it('with a paid model named in the request, too little power is refused before the provider and leaves no hold', async () => {
    const id = await createStory(t, alice);
    await grant(alice, 50);
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'stub' });
    expect(res.status).toBe(402);
    expect(res.body!.code).toBe(ErrorCode.NOT_ENOUGH_POWER);
    expect(stub.requests).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    // The hold written alongside the balance read was voided: nothing moved.
    expect(await balanceOf(t, alice.userID)).toBe(50);
    expect(await entriesOf(t, alice.userID, { kind: 'hold', state: 'applied' })).toHaveLength(0);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'idle', retryAfterMs: 0 });
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
  });

  it('a hold that fails (power spent meanwhile) refuses the send before the provider is asked: nothing sent, charged or claimed', async () => {
    const id = await createStory(t, alice);
    await grant(alice, 1000);
    const power = t.app.get(PowerService);
    // The balance read said yes; the hold is refused, as when another send spent the power in between.
    const hold = vi.spyOn(power, 'hold').mockImplementationOnce(async () => {
      await new Promise((r) => setTimeout(r, 50));
      throw new AppException(ErrorCode.NOT_ENOUGH_POWER);
    });
    stub.set({ completionTokens: 200, firstDelayMs: 10 });
    const res = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'stub' });
    hold.mockRestore();
    expect(res.status).toBe(402);
    expect(res.body!.code).toBe(ErrorCode.NOT_ENOUGH_POWER);
    // The hold is one of the send's checks: the provider was never asked.
    expect(stub.requests).toBe(0);
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(1000);
    expect((await as(t, alice).get(`/api/llm/${id}/pending`)).body.data).toMatchObject({ state: 'idle', aiText: '', retryAfterMs: 0 });
    expect((await storyDoc(t, id))!.main_text).not.toMatch(/Reply/);
    // The next send goes through at once and is charged once.
    const ok = await sendTurn(base, alice.token, id, { content: 'Go', model_name: 'stub' });
    expect(ok.status).toBe(200);
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(900);
    expect((await verifyLedger(t.connection.db!)).drifts).toEqual([]);
  });

  it('pays the source author a 10% royalty once per turn on a clone of a public story', async () => {
    const bob = await signUp(t, 'bob');
    const source = await createStory(t, alice, { name: 'Source tale' });
    await as(t, alice).post(`/api/user/public/${source}`);
    const clone = await as(t, bob).post('/api/user/clone-public-story', { userID: alice.userID, storyID: source });
    const cloneId = clone.body.data.id as string;
    await grant(bob, 1000);
    await sendTurn(base, bob.token, cloneId, { content: 'Go' });
    await drain();
    expect(await balanceOf(t, bob.userID)).toBe(900);
    expect(await balanceOf(t, alice.userID)).toBe(10);
    const royalties = await entriesOf(t, alice.userID, { kind: 'royalty' });
    expect(royalties).toHaveLength(1);
    // Alice playing her own story pays nobody.
    await grant(alice, 1000);
    await sendTurn(base, alice.token, source, { content: 'Go' });
    await drain();
    expect(await balanceOf(t, alice.userID)).toBe(910);
  });
});
