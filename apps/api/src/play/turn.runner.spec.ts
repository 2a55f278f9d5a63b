import { Types } from 'mongoose';
import { collectGarbage } from '../../test/support/collect-garbage';
import { storyForPlay } from '../../test/support/story-for-play';
import type { AppConfig } from '../config/app-config';
import type { ChosenModel } from '../generation/model-chooser';
import type { ModelsService } from '../models/models.service';
import type { StoryRepository } from '../stories/story.repository';
import type { TaskRepository } from '../tasks/task.repository';
import type { SendGuess, SendGuesses } from './send-guesses';
import type { TurnContextRepository } from './turn-context.repository';
import type { TurnSend } from './turn-send';
import { TurnRunner } from './turn.runner';

const chosen = { model: { value: 'free', points: 0, contextWindow: 8192, maxOutput: 512 }, apiKey: 'k', statusKey: 'free' } as unknown as ChosenModel;

// A story whose prompt is some kilobytes, as a real one's is.
const story = () => storyForPlay({ name: 'Tide', main_text: 'The keeper climbed the stairs. '.repeat(200), prologue_and_characters: 'A lighthouse. '.repeat(100) });

// A runner whose provider request never answers until it is aborted (what startEarly needs of its parts).
function runner(): TurnRunner {
  const relay = (request: { signal: AbortSignal }) => new Promise<void>((_, fail) => request.signal.addEventListener('abort', () => fail(new Error('aborted'))));
  const models = { relay } as unknown as ModelsService;
  const guesses = { counts: { guessed: 0, stood: 0, dropped: 0 } } as unknown as SendGuesses;
  const config = { env: { PROVIDER_TIMEOUT_SECONDS: 60 } } as unknown as AppConfig;
  return new TurnRunner(config, models, {} as StoryRepository, {} as TaskRepository, {} as TurnContextRepository, guesses);
}

describe('TurnRunner.startEarly', () => {
  // A WeakRef holds its target until the current job ends: collect in a later turn.
  const collected = async (ref: WeakRef<object>) => {
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    return ref.deref() === undefined;
  };

  it('lets go of the guess (its story, its prompt) once the early start is dropped, though the send still holds the start', async () => {
    let guess: SendGuess | null = { story: story(), chosen, summarizedChars: 0, lore: null };
    const ref = new WeakRef(guess);
    const early = runner().startEarly({ role: '', content: 'Go on' }, guess)!;
    expect(early).not.toBeNull();
    guess = null;
    await early.drop();
    expect(await collected(ref)).toBe(true);
    // A start dropped is not confirmed afterwards: the send starts afresh.
    expect(await early.confirm({} as TurnSend)).toBe(false);
  });

  it('lets go of the guess once a confirm found that it did not stand', async () => {
    let guess: SendGuess | null = { story: story(), chosen, summarizedChars: 0, lore: null };
    const ref = new WeakRef(guess);
    const early = runner().startEarly({ role: '', content: 'Go on' }, guess)!;
    guess = null;
    // Another model than the guess's: it does not stand, and the early request is aborted.
    const send = { chosen: { ...chosen, model: { ...chosen.model, value: 'other' } }, story: story(), generation: { id: 'g1' }, storyId: new Types.ObjectId() } as unknown as TurnSend;
    expect(await early.confirm(send)).toBe(false);
    expect(await collected(ref)).toBe(true);
  });
});
