import { useMutation } from '@tanstack/react-query';
import type { ApiSuccess, LoreBookData, LoreBookInput, LoreImportMode } from '@taleloom/contracts';
import { apiClient } from '../../../lib/api-client';
import { fetchFile, type DownloadedFile } from '../../../lib/download';
import { lorePath, useStoreLore } from './lore-keys';

/** `POST /api/lore/{storyId}/import`: a book's entries after the story's own (append) or instead of them. */
export async function importLore(storyId: string, book: LoreBookInput, mode: LoreImportMode): Promise<LoreBookData> {
  return (await apiClient.post<ApiSuccess<LoreBookData>>(`${lorePath(storyId)}/import`, { book, mode })).data;
}

export function useImportLore(storyId: string) {
  const store = useStoreLore(storyId);
  return useMutation({ mutationFn: ({ book, mode }: { book: LoreBookInput; mode: LoreImportMode }) => importLore(storyId, book, mode), onSuccess: store });
}

/** `GET /api/lore/{storyId}/export`: the lore as a World Info file. */
export function exportLore(storyId: string): Promise<DownloadedFile> {
  return fetchFile(`${lorePath(storyId)}/export`);
}

export function useExportLore(storyId: string) {
  return useMutation({ mutationFn: () => exportLore(storyId) });
}
