/**
 * True for errors that mean "the database cannot be reached right now" (network, server selection,
 * a closed client or pool, commands buffered past their timeout), as opposed to a bug or bad data.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (/^Mongo(ose)?(Network|NetworkTimeout|ServerSelection|NotConnected|TopologyClosed|PoolClosed)Error$/.test(error.name)) return true;
  return /buffering timed out|Client must be connected|connection .*closed|Topology is closed/i.test(error.message);
}
