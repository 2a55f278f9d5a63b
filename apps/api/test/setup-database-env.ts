import { inject } from 'vitest';

// Every test file (and the apps it starts, its child processes) finds the run's database server where
// test-app.ts and the fault suites look for it.
const database = inject('testDatabase');
process.env.TEST_DATABASE_URI = database.uri;
process.env.TEST_DATABASE_KIND = database.kind;
