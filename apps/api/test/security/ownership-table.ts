import { ErrorCode } from '@taleloom/contracts';

/**
 * Who may touch what: one entry per endpoint that takes an id (a path parameter, or an id-like
 * query/body field: `id`, `story_id`, `userID`, ...). `security-ownership.e2e-spec.ts` reads the
 * routes from the running app and FAILS when such an endpoint has no entry here, naming it.
 *
 * Adding an endpoint (e.g. `PUT /api/custom-models/:name`, `GET /api/tasks/status/:id`):
 *  1. If the fixture needs something the owner must own first (a custom model, a task group), add it
 *     to `World` and build it in `makeWorld()` in the spec (through the API, as the owner).
 *  2. Add an entry keyed `METHOD /api/path/:param` (the key the failure message prints):
 *     - `owner-only`: `requests` are the intruder's calls against the owner's things; each must answer
 *       `expect` (this app answers 404 everywhere, so nobody learns what exists), reveal none of the
 *       owner's secrets, and change nothing. The same calls with the owner's token must succeed (2xx),
 *       which proves the fixture addresses something real.
 *     - `public-read`: as `owner-only` for the owner's PRIVATE things (`requests`), plus `publicRequests`
 *       on the PUBLIC story that any user may make (say why in `reason`); they answer 2xx and show the
 *       published version only, never the owner's later unpublished edits. `ownerMay: false` when
 *       `requests` are refused to the owner as well.
 *     - `not-owned`: the id names nothing a user owns (say what in `reason`).
 */

/** What the fixtures give a table entry to build its requests from. */
export interface World {
  ownerID: string;
  /** The owner's private story (its name, prologue and text carry `secret`). */
  privateStory: string;
  /** The owner's published story; after publishing, its text, notes and prompts were changed to carry `draftSecret`. */
  publicStory: string;
  /** An archive (save slot 3) of the private story. */
  archiveId: string;
  secret: string;
  draftSecret: string;
  /** The private story's task group (the first of its suggestions, accepted) and the suggestions' batch. */
  tasksId: number;
  taskBatch: string;
  /** The name of the owner's custom model (its address carries `secret`). */
  customModel: string;
  /** Ready pictures: of the private story's text; of the public story, drawn before publishing (in its published
   * version); and of the public story's draft text, drawn after publishing (not in the published version). */
  privatePicture: string;
  publicPicture: string;
  draftPicture: string;
  /** A lore entry of each story (the private one's content carries `secret`, the public one's `draftSecret`). */
  privateLoreEntry: string;
  publicLoreEntry: string;
  /** Two branches of the private story (forked from its first line), which plays its original line again. */
  privateBranch: string;
  spareBranch: string;
  /** A story of the owner whose turn has finished (not accepted): its stream can be rejoined. */
  playedStory: string;
}

export interface Call {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  url: string;
  body?: object;
}

interface Expected {
  status: number;
  code: ErrorCode;
}

export type OwnershipEntry =
  | { access: 'owner-only'; requests: (w: World) => Call[]; expect: Expected }
  | {
      access: 'public-read';
      reason: string;
      requests: (w: World) => Call[];
      publicRequests: (w: World) => Call[];
      expect: Expected;
      /** False when `requests` are refused to the owner too (so they cannot prove the fixture). */
      ownerMay?: boolean;
    }
  | { access: 'not-owned'; reason: string };

const STORY_404: Expected = { status: 404, code: ErrorCode.STORY_NOT_FOUND };
const ARCHIVE_404: Expected = { status: 404, code: ErrorCode.ARCHIVE_NOT_FOUND };
const PICTURE_404: Expected = { status: 404, code: ErrorCode.PICTURE_NOT_FOUND };
const CUSTOM_MODEL_404: Expected = { status: 404, code: ErrorCode.CUSTOM_MODEL_NOT_FOUND };

const get = (url: string): Call => ({ method: 'get', url });
const post = (url: string, body: object = {}): Call => ({ method: 'post', url, body });
const patch = (url: string, body: object): Call => ({ method: 'patch', url, body });
const put = (url: string, body: object): Call => ({ method: 'put', url, body });
const del = (url: string): Call => ({ method: 'delete', url });
/** The same call on both of the owner's stories: being public never grants writing. */
const onBoth = (w: World, call: (id: string) => Call): Call[] => [call(w.privateStory), call(w.publicStory)];

export const OWNERSHIP_TABLE: Record<string, OwnershipEntry> = {
  // Stories (/api/user/...)
  'GET /api/user/check-story/:id': {
    access: 'public-read',
    reason: 'the share link and the square ask whether a public story exists before offering to clone it',
    requests: (w) => [get(`/api/user/check-story/${w.privateStory}`)],
    publicRequests: (w) => [get(`/api/user/check-story/${w.publicStory}`)],
    expect: STORY_404,
  },
  'POST /api/user/clone-public-story': {
    access: 'public-read',
    reason: 'anyone may clone a public story from the square (the clone copies the published version)',
    requests: (w) => [post('/api/user/clone-public-story', { userID: w.ownerID, storyID: w.privateStory })],
    publicRequests: (w) => [post('/api/user/clone-public-story', { userID: w.ownerID, storyID: w.publicStory })],
    expect: STORY_404,
    // Only public stories are cloned this way, for their owner too (the owner clones with /api/llm/:id/clone).
    ownerMay: false,
  },
  'GET /api/user/story': {
    access: 'public-read',
    reason: 'a public story is a list item of the square',
    requests: (w) => [get(`/api/user/story?id=${w.privateStory}`)],
    publicRequests: (w) => [get(`/api/user/story?id=${w.publicStory}`)],
    expect: STORY_404,
  },
  'PATCH /api/user/story': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => patch('/api/user/story', { id, storyName: 'Renamed by intruder' })),
    expect: STORY_404,
  },
  'POST /api/user/public/:id': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/user/public/${id}`)),
    expect: STORY_404,
  },
  'POST /api/user/private/:id': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/user/private/${id}`)),
    expect: STORY_404,
  },
  // The story record (/api/llm)
  'GET /api/llm': {
    access: 'public-read',
    reason: 'opening a shared link or a square story shows its published version read-only (isOwner false)',
    requests: (w) => [get(`/api/llm?id=${w.privateStory}`)],
    publicRequests: (w) => [get(`/api/llm?id=${w.publicStory}`)],
    expect: STORY_404,
  },
  'PATCH /api/llm': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => patch(`/api/llm?id=${id}`, { main_text: 'Overwritten by intruder', name: 'Intruded' })),
    expect: STORY_404,
  },
  'POST /api/llm/:id/clone': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/llm/${id}/clone`)),
    expect: STORY_404,
  },
  // Play
  'POST /api/llm/:id': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/llm/${id}`, { role: 'Intruder', content: 'I take over.' })),
    expect: STORY_404,
  },
  'POST /api/llm/:id/accept': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/llm/${id}/accept`, { userContent: 'Intruder line', newContent: 'Intruder text' })),
    expect: STORY_404,
  },
  'POST /api/llm/:id/discard': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/llm/${id}/discard`)),
    expect: STORY_404,
  },
  'GET /api/llm/:id/pending': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => get(`/api/llm/${id}/pending`)),
    expect: STORY_404,
  },
  'GET /api/llm/:id/stream': {
    access: 'owner-only',
    requests: (w) => [get(`/api/llm/${w.playedStory}/stream`)],
    expect: STORY_404,
  },
  'GET /api/llm/:id/context': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => get(`/api/llm/${id}/context`)),
    expect: STORY_404,
  },
  // Lore (a story's lore is its owner's, public or not; clones copy the published version's)
  'GET /api/lore/:storyId': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => get(`/api/lore/${id}`)),
    expect: STORY_404,
  },
  'GET /api/lore/:storyId/export': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => get(`/api/lore/${id}/export`)),
    expect: STORY_404,
  },
  'POST /api/lore/:storyId/entries': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/lore/${id}/entries`, { title: 'Intruder', keys: ['x'], content: 'Planted by an intruder.' })),
    expect: STORY_404,
  },
  'PATCH /api/lore/:storyId/entries/:entryId': {
    access: 'owner-only',
    requests: (w) => [
      patch(`/api/lore/${w.privateStory}/entries/${w.privateLoreEntry}`, { content: 'Overwritten by intruder' }),
      patch(`/api/lore/${w.publicStory}/entries/${w.publicLoreEntry}`, { content: 'Overwritten by intruder' }),
    ],
    expect: STORY_404,
  },
  'DELETE /api/lore/:storyId/entries/:entryId': {
    access: 'owner-only',
    requests: (w) => [del(`/api/lore/${w.privateStory}/entries/${w.privateLoreEntry}`), del(`/api/lore/${w.publicStory}/entries/${w.publicLoreEntry}`)],
    expect: STORY_404,
  },
  'POST /api/lore/:storyId/entries/:entryId/duplicate': {
    access: 'owner-only',
    requests: (w) => [
      post(`/api/lore/${w.privateStory}/entries/${w.privateLoreEntry}/duplicate`),
      post(`/api/lore/${w.publicStory}/entries/${w.publicLoreEntry}/duplicate`),
    ],
    expect: STORY_404,
  },
  'PUT /api/lore/:storyId/settings': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => put(`/api/lore/${id}/settings`, { token_budget: 1 })),
    expect: STORY_404,
  },
  'POST /api/lore/:storyId/import': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/lore/${id}/import`, { book: { entries: [{ title: 'Intruder', content: 'Planted.' }] }, mode: 'replace' })),
    expect: STORY_404,
  },
  // Branches: a story's lines are its owner's, public or not (others read a public story's published version only)
  'GET /api/llm/:id/branches': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => get(`/api/llm/${id}/branches`)),
    expect: STORY_404,
  },
  'POST /api/llm/:id/branches': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/llm/${id}/branches`, { at: 3, name: 'Forked by intruder' })),
    expect: STORY_404,
  },
  'POST /api/llm/:id/branches/:branchId/play': {
    access: 'owner-only',
    requests: (w) => [post(`/api/llm/${w.privateStory}/branches/${w.privateBranch}/play`), post(`/api/llm/${w.publicStory}/branches/${w.publicStory}/play`)],
    expect: STORY_404,
  },
  'PATCH /api/llm/:id/branches/:branchId': {
    access: 'owner-only',
    requests: (w) => [
      patch(`/api/llm/${w.privateStory}/branches/${w.privateBranch}`, { name: 'Renamed by intruder' }),
      patch(`/api/llm/${w.publicStory}/branches/${w.publicStory}`, { name: 'Renamed by intruder' }),
    ],
    expect: STORY_404,
  },
  'DELETE /api/llm/:id/branches/:branchId': {
    access: 'owner-only',
    requests: (w) => [del(`/api/llm/${w.privateStory}/branches/${w.spareBranch}`)],
    expect: STORY_404,
  },
  // Archives
  'GET /api/archive/:storyId': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => get(`/api/archive/${id}`)),
    expect: STORY_404,
  },
  'POST /api/archive/save': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post('/api/archive/save', { story_id: id, archive_index: 3 })),
    expect: STORY_404,
  },
  'POST /api/archive/load': {
    access: 'owner-only',
    requests: (w) => [post('/api/archive/load', { archive_id: w.archiveId })],
    expect: ARCHIVE_404,
  },
  // Custom models: names are per user, so another user's call finds none of theirs.
  'PUT /api/custom-models/:name': {
    access: 'owner-only',
    requests: (w) => [put(`/api/custom-models/${encodeURIComponent(w.customModel)}`, { base_url: 'http://127.0.0.1:9/intruder/v1', api_key: 'sk-intruder-key' })],
    expect: CUSTOM_MODEL_404,
  },
  'DELETE /api/custom-models/:name': {
    access: 'owner-only',
    requests: (w) => [del(`/api/custom-models/${encodeURIComponent(w.customModel)}`)],
    expect: CUSTOM_MODEL_404,
  },
  // Pictures
  'GET /api/llm/:id/pictures': {
    access: 'public-read',
    reason: "a public story's reader sees the pictures of its published version",
    requests: (w) => [get(`/api/llm/${w.privateStory}/pictures`)],
    publicRequests: (w) => [get(`/api/llm/${w.publicStory}/pictures`)],
    expect: STORY_404,
  },
  'POST /api/llm/:id/pictures': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/llm/${id}/pictures`, { from: 0, to: 5 })),
    expect: STORY_404,
  },
  'POST /api/llm/:id/pictures/:pictureId/retry': {
    access: 'owner-only',
    requests: (w) => [
      post(`/api/llm/${w.privateStory}/pictures/${w.privatePicture}/retry`),
      post(`/api/llm/${w.publicStory}/pictures/${w.publicPicture}/retry`),
    ],
    expect: STORY_404,
  },
  'GET /api/images/:id': {
    access: 'public-read',
    reason: 'a picture is served to those who may read a story that shows it: the published version of a public story',
    // The private story's picture, and one drawn on the public story after publishing (in the draft only).
    requests: (w) => [get(`/api/images/${w.privatePicture}`), get(`/api/images/${w.draftPicture}`)],
    publicRequests: (w) => [get(`/api/images/${w.publicPicture}`)],
    expect: PICTURE_404,
  },
  'POST /api/export': {
    access: 'public-read',
    reason: "an export with story_id carries that story's pictures: a public story's published ones for anyone",
    requests: (w) => [post('/api/export', { content: 'Mine.', format: 'html', story_id: w.privateStory })],
    publicRequests: (w) => [post('/api/export', { content: 'A public prologue.\nIt ends.', format: 'html', story_id: w.publicStory })],
    expect: STORY_404,
  },
  // Tasks (a story's task groups are its owner's, public or not)
  'GET /api/tasks': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => get(`/api/tasks?story_id=${id}`)),
    expect: STORY_404,
  },
  'GET /api/tasks/status/:id': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => get(`/api/tasks/status/${id}`)),
    expect: STORY_404,
  },
  'POST /api/tasks/:id/create': {
    access: 'owner-only',
    requests: (w) => onBoth(w, (id) => post(`/api/tasks/${id}/create`)),
    expect: STORY_404,
  },
  'POST /api/tasks/:id/add_new': {
    access: 'owner-only',
    requests: (w) => [post(`/api/tasks/${w.privateStory}/add_new`, { batch: w.taskBatch, index: 1 })],
    expect: STORY_404,
  },
  'PUT /api/tasks/:id/:groupId': {
    access: 'owner-only',
    requests: (w) => [put(`/api/tasks/${w.privateStory}/${w.tasksId}`, { series_name: 'Renamed by intruder' })],
    expect: STORY_404,
  },
  'DELETE /api/tasks/:id/:index': {
    access: 'owner-only',
    requests: (w) => [del(`/api/tasks/${w.privateStory}/0?tasks_id=${w.tasksId}`)],
    expect: STORY_404,
  },
  'POST /api/tasks/:id/:index/score': {
    access: 'owner-only',
    requests: (w) => [post(`/api/tasks/${w.privateStory}/0/score`, { tasks_id: w.tasksId })],
    expect: STORY_404,
  },
  // Accounts
  'POST /api/user/send-sms': {
    access: 'not-owned',
    reason: '`captchaId` names an anonymous captcha challenge (one try each), not anything a user owns',
  },
};
