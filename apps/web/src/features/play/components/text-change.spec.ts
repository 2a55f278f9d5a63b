import { describe, expect, it } from 'vitest';
import { textChange } from './play-screen';

const long = Array.from({ length: 500 }, (_, i) => `Passage ${i}: the lamp burns low.`).join('\n');

describe('saving an edited text', () => {
  it('sends the one change of a long text, and the whole text when the change is most of it', () => {
    const fixed = long.replace('Passage 250: the lamp', 'Passage 250: the old lamp');
    const change = textChange(long, fixed);
    expect(change.main_text).toBeUndefined();
    expect(change.main_text_edit).toMatchObject({ removed: '', inserted: 'old ', base_length: long.length });
    expect(JSON.stringify(change).length).toBeLessThan(200);
    expect(textChange('A short tale.', 'Another one entirely.')).toEqual({ main_text: 'Another one entirely.' });
  });
});
