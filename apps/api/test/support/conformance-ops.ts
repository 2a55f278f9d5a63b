// The documents and operations of the stand-in conformance test (stand-in-conformance.e2e-spec.ts):
// every BSON type the app stores, under every query and update operator the app's code uses (and a few
// neighbours), each with what MongoDB answers. Reads use promoteValues: false, so Int32, Double and Long
// are told apart.
//
// Where the stand-in answers otherwise, `standIn` says what it answers and why the app is not hurt;
// the test holds the stand-in to that answer, so a change in it is noticed. The list is the summary of
// how the embedded default differs from MongoDB for this app (see also docs/database.md).
import { QUERY_OPS } from './conformance-queries';
import { UPDATE_OPS } from './conformance-updates';
import type { ConformanceOp } from './conformance-documents';

export { IDS, seedConformance, type ConformanceOp, type Observation } from './conformance-documents';

// Queries first, so they read what came back from disk before anything changes it.
export const CONFORMANCE_OPS: ConformanceOp[] = [...QUERY_OPS, ...UPDATE_OPS];
