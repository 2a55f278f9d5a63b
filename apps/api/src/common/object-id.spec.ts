import { mongo, Types } from 'mongoose';
import { ownObjectId, toObjectId } from './object-id';

const hex = '6b0f3bd0991301947fc6eb66';

describe('object ids', () => {
  it('reads a hex id, and answers a malformed one as not found', () => {
    expect(toObjectId(hex).toHexString()).toBe(hex);
    expect(toObjectId(hex).equals(new Types.ObjectId(hex))).toBe(true);
    expect(() => toObjectId('not-an-id')).toThrow(expect.objectContaining({ code: 'STORY_NOT_FOUND' }));
  });

  it('keeps the 12 bytes of a hex id in a buffer of its own (not a view of a shared 8 KB slab)', () => {
    // What the driver's own parsing of hex makes: a view of Node's buffer pool.
    expect(new Types.ObjectId(hex).id.buffer.byteLength).toBeGreaterThan(12);
    expect(toObjectId(hex).id.buffer.byteLength).toBe(12);
  });

  it('copies an id read from the database into a buffer of its own, the same id', () => {
    const read = (mongo.BSON.deserialize(mongo.BSON.serialize({ _id: new Types.ObjectId(hex) })) as { _id: Types.ObjectId })._id;
    // Deserialised, the id is a view of a pooled slab: kept for long, it keeps the whole slab.
    expect(read.id.buffer.byteLength).toBeGreaterThan(12);
    const own = ownObjectId(read);
    expect(own.id.buffer.byteLength).toBe(12);
    expect(own.equals(read)).toBe(true);
    expect(own.toHexString()).toBe(hex);
  });
});
