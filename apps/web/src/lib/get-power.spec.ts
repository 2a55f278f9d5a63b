import { describe, expect, it, vi } from 'vitest';
import { ApiClientError } from './api-client';
import { GET_POWER_EVENT, isNotEnoughPower, requestGetPower } from './get-power';

describe('get power', () => {
  it('announces the request on window', () => {
    const listener = vi.fn();
    window.addEventListener(GET_POWER_EVENT, listener);
    requestGetPower();
    window.removeEventListener(GET_POWER_EVENT, listener);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('recognises NOT_ENOUGH_POWER', () => {
    expect(isNotEnoughPower(new ApiClientError(402, 'NOT_ENOUGH_POWER', 'x'))).toBe(true);
    expect(isNotEnoughPower(new ApiClientError(400, 'VALIDATION_FAILED', 'x'))).toBe(false);
    expect(isNotEnoughPower(new Error('x'))).toBe(false);
  });
});
