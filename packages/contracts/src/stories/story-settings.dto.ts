import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';

export const PROMPT_SWITCHES = ['default', 'custom'] as const;
export type PromptSwitch = (typeof PROMPT_SWITCHES)[number];

/** Picture sizes for AI image generation (spec section 9). */
export const PIC_SIZES = ['512*512', '512*768', '512*1024', '1024*1024'] as const;
export type PicSize = (typeof PIC_SIZES)[number];

export const SETTINGS_TEXT_MAX_LENGTH = 10_000;

/** The story settings of spec section 3, as stored and answered. */
export interface StorySettings {
  settings_system_prompt_switch: PromptSwitch;
  settings_system_prompt_text: string;
  settings_user_prompt_switch: PromptSwitch;
  settings_user_prompt_text: string;
  settings_camera_switch: boolean;
  settings_camera_consistency_switch: boolean;
  settings_camera_style_switch: PromptSwitch;
  settings_camera_style_prompt_text: string;
  settings_pic_size: PicSize;
}

/** Defaults of a new story's settings (spec section 3 "Story settings"). */
export const DEFAULT_STORY_SETTINGS: StorySettings = {
  settings_system_prompt_switch: 'default',
  settings_system_prompt_text: '',
  settings_user_prompt_switch: 'default',
  settings_user_prompt_text: '',
  settings_camera_switch: true,
  settings_camera_consistency_switch: false,
  settings_camera_style_switch: 'default',
  settings_camera_style_prompt_text: '',
  settings_pic_size: '512*512',
};

export const STORY_SETTINGS_FIELDS = Object.keys(DEFAULT_STORY_SETTINGS) as (keyof StorySettings)[];

/** Optional story settings, shared by create and update bodies. */
export class StorySettingsDto extends LocalizedDto {
  @IsOptional()
  @IsIn(PROMPT_SWITCHES as unknown as string[])
  settings_system_prompt_switch?: PromptSwitch;

  @IsOptional()
  @IsString()
  @MaxLength(SETTINGS_TEXT_MAX_LENGTH)
  settings_system_prompt_text?: string;

  @IsOptional()
  @IsIn(PROMPT_SWITCHES as unknown as string[])
  settings_user_prompt_switch?: PromptSwitch;

  @IsOptional()
  @IsString()
  @MaxLength(SETTINGS_TEXT_MAX_LENGTH)
  settings_user_prompt_text?: string;

  @IsOptional()
  @IsBoolean()
  settings_camera_switch?: boolean;

  @IsOptional()
  @IsBoolean()
  settings_camera_consistency_switch?: boolean;

  @IsOptional()
  @IsIn(PROMPT_SWITCHES as unknown as string[])
  settings_camera_style_switch?: PromptSwitch;

  @IsOptional()
  @IsString()
  @MaxLength(SETTINGS_TEXT_MAX_LENGTH)
  settings_camera_style_prompt_text?: string;

  @IsOptional()
  @IsIn(PIC_SIZES as unknown as string[])
  settings_pic_size?: PicSize;
}
