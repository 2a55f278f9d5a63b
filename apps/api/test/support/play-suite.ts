import { TurnRunner } from '../../src/play/turn.runner';
import { PowerService } from '../../src/power/power.service';
import type { TestUser } from '../story-factories';
import type { TestApp } from '../test-app';
import { stubModel } from './play-helpers';
import { stubAppSuite } from './stub-app-suite';

const drainTurns = (t: TestApp) => t.app.get(TurnRunner).drain();

/**
 * The hooks and helpers of the play suites (POST /api/llm/{id}): the stub as a paid model, a free one
 * and a free reasoning one, beside the demo model; alice with no power.
 */
export function playSuite() {
  const s = stubAppSuite({
    env: (stub) => {
      const model = (value: string, extra: object = {}) => stubModel(stub.baseURL, value, extra);
      return {
        MODELS_JSON: JSON.stringify([model('stub'), model('free', { points: 0 }), model('thinker', { points: 0, enableReasoning: true })]),
        DEMO_MODEL: 'on',
        PROVIDER_TIMEOUT_SECONDS: '5',
      };
    },
    drain: drainTurns,
    bob: false,
    each: ({ stub }) => stub.set({ completionTokens: 200 }),
  });
  const drain = () => drainTurns(s.t);
  const grant = (user: TestUser, amount: number) =>
    s.t.app.get(PowerService).grant(user.userID, amount, 'test', `test-grant-${Math.random()}`);
  return Object.assign(s, { drain, grant });
}
