import { seededRandom } from './demo-prose';

const BUILDS = ['tall and lean', 'short and sturdy', 'slight', 'broad-shouldered', 'wiry', 'round-faced'];
const HAIR = ['short dark hair', 'a long red braid', 'silver curls', 'a shaved head', 'sandy hair tied back', 'black hair in a bun'];
const CLOTHES = [
  'a red wool coat', 'a green travelling cloak', 'a blue sailor jacket', 'a grey hooded robe', 'a yellow raincoat',
  'a patched brown waistcoat', 'a white linen shirt and dark trousers', 'a purple scarf over a black coat',
];

/** The demo model's picture prompt: the passage's opening, as one line of scene description. */
export function demoPicturePrompt(passage: string): string {
  const line = passage.replace(/\s+/g, ' ').trim();
  return `A scene from the story: ${line.length > 220 ? `${line.slice(0, 219)}…` : line}`;
}

/**
 * The demo model's character sheet: up to three names found as "Name:" at the start of a line of the
 * character settings or the passage, each given a look chosen by the name, so it is stable.
 */
export function demoCharacterSheet(characters: string, passage: string): string {
  const names: string[] = [];
  for (const m of `${characters}\n${passage}`.matchAll(/(?:^|\n)\s*([^\n:：]{1,24})[:：]/g)) {
    const name = m[1].trim();
    if (name && !names.includes(name) && !/^(characters?|passage|setting|角色|人物)$/i.test(name)) names.push(name);
    if (names.length === 3) break;
  }
  if (names.length === 0) names.push('The traveller');
  return names
    .map((name) => {
      const random = seededRandom([...name].reduce((h, c) => Math.imul(h ^ c.codePointAt(0)!, 16777619), 2166136261));
      const pick = (list: string[]) => list[Math.floor(random() * list.length)];
      return `${name}: ${pick(BUILDS)}, ${pick(HAIR)}, wearing ${pick(CLOTHES)}.`;
    })
    .join('\n');
}
