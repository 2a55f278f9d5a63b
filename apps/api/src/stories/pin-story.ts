import type { Connection } from 'mongoose';

export interface PinArgs {
  storyNo: number;
  pinned: boolean;
}

export const PIN_USAGE = 'Usage: pnpm --filter @taleloom/api story:pin -- <storyNo> [--unpin]   (needs MONGODB_URI)';

/** Reads `<storyNo> [--unpin]`; a bare `--` (as pnpm may pass it) is ignored. */
export function parsePinArgs(argv: string[]): PinArgs | { error: string } {
  const args = argv.filter((a) => a !== '--');
  const unpin = args.includes('--unpin');
  const rest = args.filter((a) => a !== '--unpin');
  if (rest.length !== 1 || !/^\d{1,12}$/.test(rest[0])) return { error: PIN_USAGE };
  return { storyNo: Number(rest[0]), pinned: !unpin };
}

export interface PinResult {
  storyNo: number;
  name: string;
  pinToTop: boolean;
  permission: string;
}

/** Pins (or unpins) the story with this number: pinned stories lead both lists. Null if there is none. */
export async function pinStory(connection: Connection, { storyNo, pinned }: PinArgs): Promise<PinResult | null> {
  const story = await connection
    .collection('stories')
    .findOneAndUpdate(
      { storyNo },
      { $set: { pinToTop: pinned } },
      { returnDocument: 'after', projection: { storyNo: 1, name: 1, pinToTop: 1, permission: 1 } },
    );
  if (!story) return null;
  return { storyNo: story.storyNo, name: story.name ?? '', pinToTop: Boolean(story.pinToTop), permission: story.permission };
}
