import { ErrorCode, picSizeDimensions, pictureUrl, type StoryPicture } from '@taleloom/contracts';
import type { EnvironmentVariables } from '../config/env.validation';
import type { Picture } from './picture.schema';
import type { StoryPictureRef } from '../stories/story-picture-ref.schema';

/**
 * A drawing pending for longer than this belongs to an instance that stopped: it is shown failed and
 * may be retried. Every drawing ends (or fails) within IMAGES_TIMEOUT_SECONDS; a minute of slack.
 */
export function pictureStaleMs(env: Pick<EnvironmentVariables, 'IMAGES_TIMEOUT_SECONDS'>): number {
  return env.IMAGES_TIMEOUT_SECONDS * 1000 + 60_000;
}

/** True while the drawing runs (pending and not stale). */
export function isDrawing(picture: Pick<Picture, 'status' | 'startedAt'>, staleBefore: number): boolean {
  return picture.status === 'pending' && Number(picture.startedAt ?? 0) >= staleBefore;
}

/** A story's picture as the API answers it: the story's reference joined with the drawing. */
export function toPictureView(ref: StoryPictureRef, picture: Picture | null, staleBefore: number): StoryPicture {
  const dead = !picture || (picture.status === 'pending' && !isDrawing(picture, staleBefore));
  const status = dead ? 'failed' : picture.status;
  const fileId = status === 'ready' ? ref.id : null;
  const requested = picSizeDimensions(ref.size);
  return {
    id: ref.id,
    status,
    fileId,
    url: fileId ? pictureUrl(fileId) : null,
    from: ref.from ?? 0,
    to: ref.to ?? 0,
    excerpt: ref.excerpt ?? '',
    prompt: picture?.prompt ?? '',
    size: ref.size,
    width: picture?.width || requested.width,
    height: picture?.height || requested.height,
    demo: Boolean(picture?.demo),
    errorCode: dead ? ErrorCode.PICTURE_FAILED : (picture.errorCode ?? null),
    cost: picture?.cost ?? 0,
    createdAt: picture?.createdAt ?? 0,
    updatedAt: picture?.updatedAt ?? 0,
  };
}
