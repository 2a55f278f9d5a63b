import { renderDemoPicture } from './demo-picture';
import { DemoPictureThread } from './demo-picture-thread';

describe('DemoPictureThread', () => {
  const thread = new DemoPictureThread();
  afterAll(() => thread.close());

  it('draws on its own thread the very picture the generator draws, while this thread goes on', async () => {
    const prompt = 'A lighthouse at night over the harbour.\nCharacters: Ada (keeper)';
    let turns = 0;
    const ticking = setInterval(() => turns++, 1);
    const png = await thread.render(prompt, 512, 512).finally(() => clearInterval(ticking));
    expect(png.equals(await renderDemoPicture(prompt, 512, 512))).toBe(true);
    // On this thread the drawing would hold every timer until it is done.
    expect(turns).toBeGreaterThan(3);
  });

  it('draws pictures asked at once, each its own', async () => {
    const prompts = ['A snowy forest at dawn.', 'A storm over the sea.', 'A town street at dusk.'];
    const pngs = await Promise.all(prompts.map((p) => thread.render(p, 256, 256)));
    for (const [i, png] of pngs.entries()) expect(png.equals(await renderDemoPicture(prompts[i], 256, 256))).toBe(true);
  });

  it('fails the pictures not drawn yet when stopped, and starts afresh on the next one', async () => {
    const failed = expect(thread.render('A quiet harbour.', 1024, 1024)).rejects.toThrow('stopped');
    await thread.close();
    await failed;
    const png = await thread.render('A quiet harbour.', 128, 128);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
