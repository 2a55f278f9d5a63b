import { mainTextEdit } from '@taleloom/contracts';
import { describe, expect, it } from 'vitest';
import { textAfter } from './update-story';

const long = Array.from({ length: 500 }, (_, i) => `Passage ${i}: the lamp burns low.`).join('\n');

describe('saving an edited text', () => {
  it('knows the text the server keeps after a change, or that it cannot tell', () => {
    const fixed = long.replace('burns', 'glows');
    expect(textAfter(long, { main_text_edit: mainTextEdit(long, fixed) })).toBe(fixed);
    expect(textAfter(long, { main_text: 'Whole.' })).toBe('Whole.');
    expect(textAfter(long, { name: 'Renamed' })).toBe(long);
    // The cached text is not the one the edit was made on (a turn was accepted meanwhile): read it again.
    expect(textAfter(`${long}\nMore.`, { main_text_edit: mainTextEdit(long, fixed) })).toBeUndefined();
    expect(textAfter(undefined, { main_text_edit: mainTextEdit(long, fixed) })).toBeUndefined();
  });
});
