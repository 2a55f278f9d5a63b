import type { Model } from 'mongoose';
import { createTestApp, itOnRealMongoDB, type TestApp } from './test-app';

// The app's invariants rest on conditional single-document updates, which the stand-in honours; the
// unique indexes the schemas declare are a second guard that only a real MongoDB enforces (the
// stand-in accepts the duplicate: stand-in-conformance.e2e-spec.ts). These tests prove that guard.
describe('what only a real MongoDB proves', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const uniqueIndexes = () =>
    Object.values(t.connection.models as Record<string, Model<unknown>>).flatMap((model) =>
      model.schema
        .indexes()
        .filter(([, options]) => options?.unique)
        .map(([fields, options]) => ({ model, fields: Object.keys(fields), partial: options?.partialFilterExpression })),
    );

  itOnRealMongoDB('every unique index a schema declares is built and refuses a duplicate (E11000)', async () => {
    const indexes = uniqueIndexes();
    // users (name, invite code), SMS codes, sign-in failures, phone rewards, counters, players, archives.
    expect(indexes.length).toBeGreaterThanOrEqual(8);
    const refused: string[] = [];
    for (const { model, fields } of indexes) {
      await model.init();
      // Strings satisfy every partial filter the schemas use ({ $type: 'string' }).
      const key = Object.fromEntries(fields.map((f) => [f, `duplicate-${f}`]));
      await model.collection.insertOne({ ...key });
      const second = await model.collection.insertOne({ ...key }).then(
        () => 'inserted',
        (error: { code?: number }) => error.code,
      );
      if (second === 11000) refused.push(`${model.modelName}(${fields.join(',')})`);
      else throw new Error(`${model.modelName}(${fields.join(',')}): a duplicate was ${String(second)}`);
    }
    expect(refused).toHaveLength(indexes.length);
  });
});
