import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { applyMainTextEdit, CreateStoryDto, mainTextEdit, rebaseText, RenameStoryDto, StoryListQueryDto, UpdateStoryDto } from '../index';

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

describe('main_text_edit', () => {
  const edit = { at: 3, removed: 'b', inserted: 'xyz', base_length: 5 };
  it('takes one edit of the text, whole numbers within the text limit, and not beside main_text', () => {
    expect(check(UpdateStoryDto, { main_text_edit: edit })).toEqual([]);
    expect(check(UpdateStoryDto, { main_text_edit: edit, main_text: 'whole' })).toEqual(['main_text_edit']);
    expect(check(UpdateStoryDto, { main_text_edit: { ...edit, at: -1 } })).toEqual(['main_text_edit']);
    expect(check(UpdateStoryDto, { main_text_edit: { ...edit, at: 1.5 } })).toEqual(['main_text_edit']);
    expect(check(UpdateStoryDto, { main_text_edit: { ...edit, inserted: 7 } })).toEqual(['main_text_edit']);
    expect(check(UpdateStoryDto, { main_text_edit: { at: 0, removed: '', inserted: 'x' } })).toEqual(['main_text_edit']);
    expect(check(UpdateStoryDto, { main_text_edit: 'x' })).toEqual(['main_text_edit']);
    expect(check(UpdateStoryDto, { main_text_edit: { ...edit, extra: 1 } })).toEqual(['main_text_edit']);
  });

  it('finds the smallest change and applies it back, only on the text it was made on', () => {
    const before = 'Once upon a time.\nThe end.';
    const after = 'Once upon a long time.\nThe end!';
    const change = mainTextEdit(before, after);
    expect(change).toMatchObject({ at: 12, removed: 'time.\nThe end.', inserted: 'long time.\nThe end!', base_length: before.length });
    expect(applyMainTextEdit(before, change)).toBe(after);
    expect(applyMainTextEdit(before + ' more', change)).toBeUndefined();
    expect(applyMainTextEdit(before.replace('time', 'TIME'), change)).toBeUndefined();
    expect(mainTextEdit(before, before)).toMatchObject({ removed: '', inserted: '' });
    expect(applyMainTextEdit('', mainTextEdit('', '新的开始'))).toBe('新的开始');
    expect(applyMainTextEdit(before, mainTextEdit(before, ''))).toBe('');
  });

  it('never splits a character written as two UTF-16 units', () => {
    // Two emoji sharing their high surrogate (U+1F600, U+1F601): the change is the whole character.
    const change = mainTextEdit('a\u{1F600}b', 'a\u{1F601}b');
    expect(change).toMatchObject({ at: 1, removed: '\u{1F600}', inserted: '\u{1F601}' });
    const tail = mainTextEdit('\u{1F600}', '\u{1F600}\u{1F600}');
    expect(tail.removed + tail.inserted).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    expect(applyMainTextEdit('\u{1F600}', tail)).toBe('\u{1F600}\u{1F600}');
  });
});

describe('rebaseText', () => {
  const base = 'Mara waits.\nThe ferry is late.\n';
  it("keeps both changes when they do not touch: an edit before a passage appended elsewhere, or after one", () => {
    const theirs = `${base}The horn sounds.\n`;
    expect(rebaseText(base, theirs, base.replace('waits', 'still waits'))).toBe(theirs.replace('waits', 'still waits'));
    const before = base.replace('Mara', 'Old Mara');
    expect(rebaseText(base, before, base.replace('late', 'very late'))).toBe(before.replace('late', 'very late'));
    // Both at the end: mine first, then theirs.
    expect(rebaseText(base, theirs, `${base}Mara sighs.\n`)).toBe(`${base}Mara sighs.\nThe horn sounds.\n`);
    // Nothing changed on one side.
    expect(rebaseText(base, base, 'Mine.')).toBe('Mine.');
    expect(rebaseText(base, theirs, base)).toBe(theirs);
    // The same change on both sides is made once.
    expect(rebaseText(base, `${base}More.`, `${base}More.`)).toBe(`${base}More.`);
  });

  it('gives up when both change the same characters', () => {
    expect(rebaseText(base, base.replace('ferry', 'boat'), base.replace('ferry', 'raft'))).toBeUndefined();
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
