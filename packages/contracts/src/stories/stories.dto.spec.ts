import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { CreateStoryDto, RenameStoryDto, StoryListQueryDto, UpdateStoryDto } from '../index';

// No reflect-metadata here on purpose: the browser imports these classes without it.
const check = <T extends object>(cls: new () => T, body: object) =>
  validateSync(plainToInstance(cls, body) as object, { whitelist: true, forbidNonWhitelisted: true }).map((e) => e.property);

describe('CreateStoryDto', () => {
  it('needs only the prologue; an empty name is untitled', () => {
    expect(check(CreateStoryDto, { prologue_and_characters: 'x' })).toEqual([]);
    expect(check(CreateStoryDto, { prologue_and_characters: 'x', name: '' })).toEqual([]);
  });
  it('names each bad field', () => {
    expect(check(CreateStoryDto, {})).toEqual(['prologue_and_characters']);
    expect(check(CreateStoryDto, { prologue_and_characters: 'x', name: 'a' })).toEqual(['name']);
    expect(check(CreateStoryDto, { prologue_and_characters: 'x', role: 'r'.repeat(51) })).toEqual(['role']);
    expect(check(CreateStoryDto, { prologue_and_characters: 'x', play_mode: 'x' })).toEqual(['play_mode']);
    expect(check(CreateStoryDto, { prologue_and_characters: 'x', 'hidden-settings': 'a' })).toEqual(['hidden-settings']);
    expect(check(CreateStoryDto, { prologue_and_characters: 'x', settings_camera_switch: 'on' })).toEqual([
      'settings_camera_switch',
    ]);
  });
});

describe('UpdateStoryDto and RenameStoryDto', () => {
  it('validates each field it takes and nothing else', () => {
    expect(check(UpdateStoryDto, { main_text: 'new', play_mode: 'tasks_master', settings_pic_size: '512*768' })).toEqual([]);
    expect(check(UpdateStoryDto, { permission: '1' })).toEqual(['permission']);
    expect(check(RenameStoryDto, { id: 'abc', storyName: '' })).toEqual([]);
    expect(check(RenameStoryDto, { id: 'abc' })).toEqual(['storyName']);
  });
});

describe('StoryListQueryDto', () => {
  it('turns whole-number query strings into numbers and refuses the rest', () => {
    const dto = plainToInstance(StoryListQueryDto, { page: '2', pageSize: '10', public: 'true' });
    expect(dto.page).toBe(2);
    expect(check(StoryListQueryDto, { page: '2', pageSize: '10', public: 'true' })).toEqual([]);
    expect(check(StoryListQueryDto, { page: '0' })).toEqual(['page']);
    expect(check(StoryListQueryDto, { page: '1.5' })).toEqual(['page']);
    expect(check(StoryListQueryDto, { pageSize: '51' })).toEqual(['pageSize']);
  });
});
