import type { PromptStory } from '../../src/play/context/prompt-types';

/** The story the prompt-assembly benchmarks assemble (play's and lore's), with `text` as its story text. */
export function benchStory(text: string, more: Partial<PromptStory> = {}): PromptStory {
  return {
    prologue_and_characters: 'Mara, a smuggler. Ilan, the harbour master.',
    hidden_settings: 'Ilan is her brother',
    goal: '',
    author_remark: 'Keep it tense.',
    previous_summary: 'Mara stole the ledger.',
    main_text: text,
    play_mode: 'fly_free',
    settings_system_prompt_switch: 'default',
    settings_system_prompt_text: '',
    settings_user_prompt_switch: 'default',
    settings_user_prompt_text: '',
    ...more,
  };
}
