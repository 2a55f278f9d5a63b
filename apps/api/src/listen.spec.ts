import { hasReusePort } from './listen';

describe('hasReusePort', () => {
  it('is true from Node.js 22.12 and 23.1 on, where server.listen takes reusePort', () => {
    expect(['20.20.2', '22.11.0', '23.0.0'].map((v) => hasReusePort(v))).toEqual([false, false, false]);
    expect(['22.12.0', '22.20.1', '23.1.0', '24.0.0', '25.2.1'].map((v) => hasReusePort(v))).toEqual([true, true, true, true, true]);
  });
});
