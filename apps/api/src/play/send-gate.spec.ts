import { SEND_GATE_SLOTS, SendGate } from './send-gate';

const settle = () => new Promise((r) => setImmediate(r));

describe('SendGate', () => {
  it('lets SEND_GATE_SLOTS sends through at once, the others in order of arrival as slots free', async () => {
    const gate = new SendGate();
    const admitted: number[] = [];
    const leaves = new Map<number, () => void>();
    for (let i = 0; i < SEND_GATE_SLOTS + 3; i++) {
      void gate.enter().then((leave) => {
        admitted.push(i);
        leaves.set(i, leave);
      });
    }
    await settle();
    expect(admitted).toEqual(Array.from({ length: SEND_GATE_SLOTS }, (_, i) => i));
    // A slot freed twice frees one slot.
    leaves.get(3)!();
    leaves.get(3)!();
    await settle();
    expect(admitted.slice(SEND_GATE_SLOTS)).toEqual([SEND_GATE_SLOTS]);
    leaves.get(0)!();
    leaves.get(1)!();
    await settle();
    expect(admitted.slice(SEND_GATE_SLOTS)).toEqual([SEND_GATE_SLOTS, SEND_GATE_SLOTS + 1, SEND_GATE_SLOTS + 2]);
  });
});
