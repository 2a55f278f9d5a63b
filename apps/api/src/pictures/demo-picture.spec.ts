import { PNG } from 'pngjs';
import { demoCharacterSheet, demoPicturePrompt } from '../models/demo-picture-prose';
import { renderDemoPicture, splitPrompt } from './demo-picture';

// Small sizes keep this unit test quick (the API e2e tests draw full sizes).
describe('the offline demo picture generator', () => {
  it('draws a real PNG of the asked size, the same for the same prompt and different for another', async () => {
    const prompt = 'Storybook.\n\nMara waits at the pier at night.\n\nCharacters:\nMara: tall, red coat.';
    const [a, b, c] = await Promise.all([
      renderDemoPicture(prompt, 128, 192),
      renderDemoPicture(prompt, 128, 192),
      renderDemoPicture('A sunny meadow.', 128, 192),
    ]);
    const png = PNG.sync.read(a);
    expect([png.width, png.height]).toEqual([128, 192]);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it('prints a DEMO badge in the bottom-left corner', async () => {
    const png = PNG.sync.read(await renderDemoPicture('A sunny meadow.', 256, 256));
    // The badge is dark with white letters: both appear inside its box.
    let white = 0;
    let dark = 0;
    for (let y = 256 - 34; y < 256 - 8; y++) {
      for (let x = 8; x < 66; x++) {
        const i = (y * 256 + x) * 4;
        const sum = png.data[i] + png.data[i + 1] + png.data[i + 2];
        if (sum > 740) white++;
        if (sum < 150) dark++;
      }
    }
    expect(white).toBeGreaterThan(100);
    expect(dark).toBeGreaterThan(300);
  });

  it('reads the scene and the character entries of a composed prompt', () => {
    expect(splitPrompt('Style.\n\nA pier.\n\nCharacters:\nMara: tall.\nIlan: small; Bo: old')).toEqual({
      scene: 'Style.\n\nA pier.',
      characters: ['Mara: tall.', 'Ilan: small', 'Bo: old'],
    });
    expect(splitPrompt('Just a scene.')).toEqual({ scene: 'Just a scene.', characters: [] });
  });

  it('has the demo model write a prompt and a stable character sheet', () => {
    expect(demoPicturePrompt('  Mara   waves.\n')).toBe('A scene from the story: Mara waves.');
    const sheet = demoCharacterSheet('Mara: a pilot.\nIlan: her brother.', 'Mara: I wave.');
    expect(sheet.split('\n').map((l) => l.split(':')[0])).toEqual(['Mara', 'Ilan']);
    expect(demoCharacterSheet('Mara: a pilot.', '')).toBe(demoCharacterSheet('Mara: someone else entirely.', ''));
    expect(demoCharacterSheet('No names here.', '')).toMatch(/^The traveller: /);
  });
});
