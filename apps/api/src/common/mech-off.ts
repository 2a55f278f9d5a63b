/**
 * TEMPORARY (the burst bench's comparison of speed mechanisms): BENCH_MECH_OFF=a,b names mechanisms
 * turned off in this process. Removed once the comparison is done.
 */
const off = new Set((process.env.BENCH_MECH_OFF ?? '').split(',').map((s) => s.trim()).filter(Boolean));

export const mechOff = (name: 'fast-path' | 'batched'): boolean => off.has(name);
