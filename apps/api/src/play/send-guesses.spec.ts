import { mongo, Types } from 'mongoose';
import { storyForPlay } from '../../test/support/story-for-play';
import type { AppConfig } from '../config/app-config';
import type { ChosenModel, ModelChooser } from '../generation/model-chooser';
import type { CompiledLore } from '../lore/lore-activation';
import type { LoreService } from '../lore/lore.service';
import type { PowerService } from '../power/power.service';
import type { StoryPictureRepository } from '../stories/story-picture.repository';
import type { StoryRepository } from '../stories/story.repository';
import { sameStory, SendGuesses } from './send-guesses';

const free = { model: { value: 'free', points: 0 }, apiKey: 'k', statusKey: 'free' } as unknown as ChosenModel;
const paid = { model: { value: 'paid', points: 50 }, apiKey: 'k', statusKey: 'paid' } as unknown as ChosenModel;
const chooser = { storyPlatform: () => free } as unknown as ModelChooser;

// What the lore cache and the power service know (undefined: nothing), as each test sets it.
interface Seen {
  lore: CompiledLore | null | undefined;
  balance: number | undefined;
}

function guesses(mode: 'auto' | 'on' | 'off' = 'auto') {
  let written: ((id: string) => void) | undefined;
  let kept: ((id: string, from: number, to: number) => void) | undefined;
  const seen: Seen = { lore: null, balance: undefined };
  const stories = { onWrite: (watch: (id: string) => void) => (written = watch) } as unknown as StoryRepository;
  const pictures = { onTextKept: (watch: typeof kept) => (kept = watch) } as unknown as StoryPictureRepository;
  const lore = { known: () => seen.lore } as unknown as LoreService;
  const power = { knownBalance: () => seen.balance } as unknown as PowerService;
  const g = new SendGuesses(stories, { env: { SEND_EARLY: mode } } as unknown as AppConfig, chooser, lore, power, pictures);
  return { g, seen, written: (id: string) => written!(id), kept: (id: string, from: number, to: number) => kept!(id, from, to) };
}

describe('SendGuesses', () => {
  const now = 1_000_000;

  it("keeps a story's id in a buffer of its own (an id read from the database is a view of a shared 8 KB slab)", () => {
    const { g } = guesses();
    const read = (mongo.BSON.deserialize(mongo.BSON.serialize({ _id: new Types.ObjectId() })) as { _id: Types.ObjectId })._id;
    expect(read.id.buffer.byteLength).toBeGreaterThan(12);
    const id = read.toHexString();
    g.created(id, 'u1', storyForPlay({ _id: read }));
    expect(g.guess('u1', id, { content: 'Go' }, null, now)!.story._id.id.buffer.byteLength).toBe(12);
    g.sent(id, 'u1', storyForPlay({ _id: read }), 'gen-1', now);
    g.done(id, 'gen-1', 'Go\nOn.');
    const kept = g.guess('u1', id, { content: 'More' }, null, now + 2000)!.story._id;
    expect(kept.id.buffer.byteLength).toBe(12);
    expect(kept.equals(read)).toBe(true);
  });

  it('guesses a story it made, then the pending turn accepted as sent or as edited; not while generating or within the throttle', () => {
    const { g, seen } = guesses();
    const s = storyForPlay();
    const id = s._id.toHexString();
    g.created(id, 'u1', s);
    expect(g.guess('u1', id, { content: 'Go' }, null, now)).toMatchObject({ story: { main_text: 'Start.' }, chosen: free, summarizedChars: 0, lore: null });
    // Another user, or a story it does not know: no guess.
    expect(g.guess('u2', id, { content: 'Go' }, null, now)).toBeNull();
    expect(g.guess('u1', new Types.ObjectId().toHexString(), { content: 'Go' }, null, now)).toBeNull();
    g.sent(id, 'u1', s, 'gen-1', now);
    expect(g.guess('u1', id, { content: 'Go' }, null, now + 2000)).toBeNull();
    g.done(id, 'gen-1', 'Go\nThe tide turned.');
    expect(g.guess('u1', id, { content: 'More' }, null, now + 500)).toBeNull();
    expect(g.guess('u1', id, { content: 'More' }, null, now + 2000)!.story.main_text).toBe('Start.\nGo\nThe tide turned.');
    const edited = { turnId: 'gen-1', userContent: 'Go', newContent: 'It rained.' };
    expect(g.guess('u1', id, { content: 'More', accept: edited }, null, now + 2000)!.story.main_text).toBe('Start.\nGo\nIt rained.');
    // An older take named, a regenerate, a paid model, an unknown lore.
    expect(g.guess('u1', id, { content: 'More', accept: { ...edited, turnId: 'gen-0' } }, null, now + 2000)).toBeNull();
    expect(g.guess('u1', id, { content: 'More', regenerate: true }, null, now + 2000)!.story.main_text).toBe('Start.');
    expect(g.guess('u1', id, { content: 'More' }, paid, now + 2000)).toBeNull();
    seen.balance = 49;
    expect(g.guess('u1', id, { content: 'More' }, paid, now + 2000)).toBeNull();
    seen.balance = 50;
    expect(g.guess('u1', id, { content: 'More' }, paid, now + 2000)).toMatchObject({ chosen: paid });
    seen.lore = undefined;
    expect(g.guess('u1', id, { content: 'More' }, null, now + 2000)).toBeNull();
  });

  it('keeps at most its size in text, the pieces of the turns done counted (the oldest stories go first)', () => {
    const { g } = guesses();
    // Ten stories whose turns each stored a million characters: more than the 8,000,000 it keeps.
    const ids = Array.from({ length: 10 }, (_, i) => {
      const s = storyForPlay();
      const id = s._id.toHexString();
      g.created(id, 'u1', s);
      g.sent(id, 'u1', s, `gen-${i}`, now);
      g.done(id, `gen-${i}`, 'x'.repeat(1_000_000));
      return id;
    });
    expect(g.guess('u1', ids[0], { content: 'More' }, null, now + 2000)).toBeNull();
    expect(g.guess('u1', ids[1], { content: 'More' }, null, now + 2000)).toBeNull();
    expect(g.guess('u1', ids[9], { content: 'More' }, null, now + 2000)!.story.main_text).toHaveLength('Start.'.length + 1 + 1_000_000);
  });

  it('forgets a story this process writes, and guesses nothing when SEND_EARLY is off', () => {
    const { g, written } = guesses();
    const s = storyForPlay();
    const id = s._id.toHexString();
    g.created(id, 'u1', s);
    written(id);
    expect(g.guess('u1', id, { content: 'Go' }, null, now)).toBeNull();
    const off = guesses('off').g;
    off.created(id, 'u1', s);
    expect(off.guess('u1', id, { content: 'Go' }, null, now)).toBeNull();
  });

  it('a task play mode is guessed only with the targets read for the branch it plays', () => {
    const { g } = guesses();
    const s = storyForPlay({ play_mode: 'tasks_guider' });
    const id = s._id.toHexString();
    g.created(id, 'u1', s);
    expect(g.guess('u1', id, { content: 'Go' }, null, now)).toBeNull();
    g.targets(id, id, [{ title: 'Find the letter', type: 'reality' }]);
    expect(g.guess('u1', id, { content: 'Go' }, null, now)!.openTargets).toEqual([{ title: 'Find the letter', type: 'reality' }]);
  });

  it("knows a story's text at the revision it last saw, for its owner only; a picture's revision keeps it, any other write forgets it", () => {
    const { g, written, kept } = guesses();
    const s = storyForPlay({ main_text: 'Mara waits.', stateRev: 4 });
    const id = s._id.toHexString();
    g.created(id, 'u1', s);
    expect(g.knownText(id, 'u1')).toEqual({ stateRev: 4, main_text: 'Mara waits.' });
    expect(g.knownText(id, 'u2')).toBeNull();
    // A picture's reference moved the story from 4 to 5; one from another revision says nothing of this text.
    kept(id, 4, 5);
    kept(id, 7, 8);
    expect(g.knownText(id, 'u1')).toEqual({ stateRev: 5, main_text: 'Mara waits.' });
    written(id);
    expect(g.knownText(id, 'u1')).toBeNull();
    // A story read before revisions were counted has none to match.
    g.created(id, 'u1', storyForPlay({ _id: s._id }));
    expect(g.knownText(id, 'u1')).toBeNull();
  });

  it('sameStory: equal play fields, whatever their update time and revision; any other difference is not the same story', () => {
    const s = storyForPlay({ updatedAt: new Date(1), stateRev: 2 });
    expect(sameStory({ ...s, _id: new Types.ObjectId(s._id.toHexString()), updatedAt: new Date(2), lineage: [], stateRev: 3 }, s)).toBe(true);
    expect(sameStory({ ...s, main_text: 'Start!' }, s)).toBe(false);
    expect(sameStory({ ...s, _id: new Types.ObjectId() }, s)).toBe(false);
  });
});
