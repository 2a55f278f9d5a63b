import { characterSheetMessages, composeImagePrompt, DEFAULT_PICTURE_STYLE, picturePromptMessages } from './picture-prompt';

describe('picture prompts', () => {
  it('gives the model the character settings, the sheet when there is one, and the passage', () => {
    const [system, user] = picturePromptMessages({ characters: 'Mara: a pilot.', passage: 'Mara waves.', sheet: 'Mara: tall.' });
    expect(system.content).toMatch(/image generator/);
    expect(user.content).toBe('<characters>\nMara: a pilot.\n</characters>\n<character-sheet>\nMara: tall.\n</character-sheet>\n<passage>\nMara waves.\n</passage>\nWrite the picture prompt for this passage.');
    expect(picturePromptMessages({ characters: 'x', passage: 'y', sheet: ' ' })[1].content).not.toContain('<character-sheet>');
    expect(characterSheetMessages({ characters: 'x', passage: 'y' })[1].content).toContain('<sheet-request>');
  });

  it('keeps a long passage by its end and long character settings by their start', () => {
    const passage = `${'a'.repeat(3000)}THE END`;
    const content = picturePromptMessages({ characters: `START${'b'.repeat(5000)}`, passage, sheet: '' })[1].content;
    expect(content).toContain('THE END');
    expect(content).toContain('START');
    expect(content.length).toBeLessThan(5200);
  });

  it('composes style, scene and sheet within the limit, sure of room for the sheet', () => {
    expect(composeImagePrompt('', 'A pier at night.', '', 1000)).toBe(`${DEFAULT_PICTURE_STYLE}\n\nA pier at night.`);
    expect(composeImagePrompt('Ink.', 'A pier.', 'Mara: tall.', 1000)).toBe('Ink.\n\nA pier.\n\nCharacters:\nMara: tall.');
    const long = composeImagePrompt('Ink.', 'scene '.repeat(400), 'Mara: tall, red coat. '.repeat(30), 1000);
    expect(long.length).toBeLessThanOrEqual(1000);
    expect(long).toContain('Characters:\nMara: tall, red coat.');
    expect(long.indexOf('Characters:')).toBeLessThan(1000 - 300);
  });
});
