import { ErrorCode } from '@taleloom/contracts';
import { isApiClientError } from './api-client';

/** The window event that opens the "get power" dialog (the app layout listens for it). */
export const GET_POWER_EVENT = 'taleloom:get-power';

/** Opens the "get power" dialog from anywhere, e.g. after NOT_ENOUGH_POWER. */
export function requestGetPower(): void {
  window.dispatchEvent(new Event(GET_POWER_EVENT));
}

/** True for the API's "not enough power, please get power" error: offer `requestGetPower` then. */
export function isNotEnoughPower(error: unknown): boolean {
  return isApiClientError(error) && error.code === ErrorCode.NOT_ENOUGH_POWER;
}
