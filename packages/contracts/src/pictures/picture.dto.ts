import { IsInt, Max, Min } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import type { PicSize } from '../stories/story-settings.dto';

/** Where a picture stands: being drawn, shown, or failed (nothing charged; it can be retried). */
export const PICTURE_STATUSES = ['pending', 'ready', 'failed'] as const;
export type PictureStatus = (typeof PICTURE_STATUSES)[number];

/** At most this many pictures per story (each is one entry of the story record). */
export const PICTURES_PER_STORY_MAX = 500;
/** At most this many pictures of one story are drawn at the same time. */
export const PICTURES_PENDING_MAX = 3;
/** How many characters of the illustrated passage's end a picture keeps to find it again after edits. */
export const PICTURE_EXCERPT_CHARS = 80;
/** How often the play screen asks for pictures while one is being drawn. */
export const PICTURE_POLL_MS = 1500;

/**
 * One picture of a story: the passage it shows (`from`..`to` in the story's text, UTF-16 offsets, with
 * the passage's last characters in `excerpt`), the prompt it was drawn from, and its state.
 */
export interface StoryPicture {
  id: string;
  status: PictureStatus;
  /** `GET /api/images/{fileId}` serves it; null until it is ready. */
  fileId: string | null;
  url: string | null;
  from: number;
  to: number;
  excerpt: string;
  /** The prompt sent to the image generator (empty until written). */
  prompt: string;
  size: PicSize;
  width: number;
  height: number;
  /** Drawn by the offline demo generator (not an AI picture). */
  demo: boolean;
  /** Why it failed (an ErrorCode). */
  errorCode: string | null;
  /** Power charged for it. */
  cost: number;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

/** What the server can draw with: none (the operator turned pictures off), the demo, or a real model. */
export interface PictureGeneratorInfo {
  available: boolean;
  demo: boolean;
  /** Power one picture costs. */
  points: number;
}

/** `data` of `GET /api/llm/{id}/pictures`. */
export interface PicturesData {
  pictures: StoryPicture[];
  generator: PictureGeneratorInfo;
}

/** `POST /api/llm/{id}/pictures`: illustrate the passage `from`..`to` of the story's text (or redraw its picture). */
export class RequestPictureDto extends LocalizedDto {
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  from!: number;

  @IsInt()
  @Min(1)
  @Max(10_000_000)
  to!: number;
}

/** The URL of a stored picture. */
export const pictureUrl = (fileId: string) => `/api/images/${fileId}`;

/** Width and height of a picture size such as `512*768`. */
export function picSizeDimensions(size: PicSize): { width: number; height: number } {
  const [width, height] = size.split('*').map(Number);
  return { width, height };
}

/** Where a picture sits in a text: the passage it shows, found again when the text changed. */
export interface PlacedPicture<P> {
  picture: P;
  from: number;
  to: number;
}

type Anchored = Pick<StoryPicture, 'from' | 'to' | 'excerpt'>;

/**
 * Places pictures in `text`, in text order. A passage is found where it was (its excerpt ends at
 * `to`), else at the last place its excerpt occurs (the text was edited before it), else at the
 * nearest line start; `from` always starts a line so a picture never splits one.
 */
export function placePictures<P extends Anchored>(text: string, pictures: readonly P[]): PlacedPicture<P>[] {
  const placed = pictures.map((picture) => {
    const length = Math.max(0, picture.to - picture.from);
    let to = Math.min(picture.to, text.length);
    const excerpt = picture.excerpt ?? '';
    if (excerpt && text.slice(picture.to - excerpt.length, picture.to) !== excerpt) {
      const at = text.lastIndexOf(excerpt);
      if (at >= 0) to = at + excerpt.length;
    }
    const from = lineStart(text, Math.max(0, Math.min(to - length, to)));
    return { picture, from, to: Math.max(from, to) };
  });
  return placed.sort((a, b) => a.from - b.from || a.to - b.to);
}

function lineStart(text: string, at: number): number {
  if (at <= 0) return 0;
  // A passage starting right after a newline starts there; otherwise go back to its line's start.
  return text.lastIndexOf('\n', at - 1) + 1;
}
