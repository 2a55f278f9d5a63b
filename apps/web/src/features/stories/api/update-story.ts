import { useMutation, useQueryClient } from '@tanstack/react-query';
import { applyMainTextEdit, ErrorCode, type ApiSuccess, type StoryChangeData, type StoryData, type UpdateStoryDto } from '@taleloom/contracts';
import { apiClient, isApiClientError } from '../../../lib/api-client';
import { storyKeys } from './story-keys';

type StoryPatch = Omit<UpdateStoryDto, 'language'>;

/**
 * `PATCH /api/llm?id=`: text, play mode, model, settings or name of my story. Asked with
 * `Prefer: return=minimal`: the record comes back without its text (the caller has it, having sent the
 * change), so changing the model of a long story does not download the story.
 */
export async function updateStory(id: string, body: StoryPatch): Promise<StoryChangeData> {
  const response = await apiClient.patch<ApiSuccess<StoryChangeData>>('/llm', body, {
    query: { id },
    headers: { Prefer: 'return=minimal' },
  });
  return response.data;
}

/** The text a change leaves: the one sent, the cached one with the edit applied, or the cached one as it was. */
export function textAfter(cached: string | undefined, body: StoryPatch): string | undefined {
  if (body.main_text !== undefined) return body.main_text;
  if (body.main_text_edit) return cached === undefined ? undefined : applyMainTextEdit(cached, body.main_text_edit);
  return cached;
}

export function useUpdateStory(id: string) {
  const queryClient = useQueryClient();
  const readAgain = () => queryClient.invalidateQueries({ queryKey: storyKeys.detail(id) });
  return useMutation({
    mutationFn: (body: StoryPatch) => updateStory(id, body),
    onSuccess: (change, body) => {
      const { main_text_length: length, ...record } = change;
      const text = textAfter(queryClient.getQueryData<StoryData>(storyKeys.detail(id))?.main_text, body);
      // The text here is the server's whenever it has the server's length; otherwise (a turn accepted
      // meanwhile) the story is read again rather than shown as this screen guesses it.
      if (text !== undefined && text.length === length) queryClient.setQueryData<StoryData>(storyKeys.detail(id), { ...record, main_text: text });
      else void readAgain();
      return queryClient.invalidateQueries({ queryKey: storyKeys.lists() });
    },
    onError: (error) => {
      // The text changed since the edit began (another device, a turn): show the text as it is now.
      if (isApiClientError(error) && error.code === ErrorCode.STORY_TEXT_CHANGED) void readAgain();
    },
  });
}
