import pLimit from 'p-limit';

// How many sends go their way to the provider request at once; the others wait their turn, in order.
// Enough to keep the database busy while one send's round trip is out.
export const SEND_GATE_SLOTS = 16;

/**
 * Sends take their way up to the provider request (checks, claim, hold, prompt) in order of arrival,
 * SEND_GATE_SLOTS at a time. Without it, every send of a burst advances one step each turn of the event
 * loop, all together, and the first of them reaches its provider as late as the last; with it, the
 * first sends are on their way while the later ones wait, and the total work is the same.
 */
export class SendGate {
  private readonly limit = pLimit(SEND_GATE_SLOTS);

  /** Waits for a slot; the function it gives back frees it (once; calling it again does nothing). */
  enter(): Promise<() => void> {
    return new Promise((granted) => {
      void this.limit(
        () =>
          new Promise<void>((release) => {
            let left = false;
            granted(() => {
              if (left) return;
              left = true;
              release();
            });
          }),
      );
    });
  }
}
