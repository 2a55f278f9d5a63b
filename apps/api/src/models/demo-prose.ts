// The offline demo model's writing: varied, readable continuations built from sentence templates,
// in the language of the story. It is a stand-in so a fresh install works with no key, not a model.

export type DemoLanguage = 'en' | 'zh';

const EN = {
  places: ['the harbour', 'the old library', 'the forest path', 'the market square', 'the lighthouse', 'the station platform', 'the rooftop garden', 'the narrow alley'],
  things: ['a brass key', 'a folded letter', 'a lantern', 'a torn map', 'a silver coin', 'a music box', 'a sealed envelope', 'a pocket watch'],
  weather: ['Rain tapped on the windows', 'A cold wind came in from the sea', 'The evening light turned everything amber', 'Fog settled over the streets', 'The first stars came out one by one', 'Thunder rolled somewhere far away'],
  feelings: ['uneasy', 'curious', 'hopeful', 'wary', 'strangely calm', 'determined'],
  openers: [
    '{weather}, and {name} paused to listen.',
    'For a moment nobody spoke.',
    '{name} took a slow breath and looked around {place}.',
    'Somewhere behind them, a door closed softly.',
    'It was later than {name} had thought.',
  ],
  middles: [
    '{name} noticed {thing} half hidden in the shadows, as if someone had left it there on purpose.',
    'A stranger in a grey coat was watching from across {place}, then turned away too quickly.',
    '"We should not stay here long," {name} said quietly, feeling {feeling}.',
    'The memory of the last meeting came back, sharper than before, and with it a question no one had answered.',
    '{name} turned {thing} over in their hands; it was warmer than it should have been.',
    'A child ran past, laughing, and dropped a scrap of paper with a single word written on it: "tonight".',
    'Footsteps echoed through {place}, steady and unhurried, coming closer.',
    'There was a smell of smoke and salt, and under it something sweeter, like burnt sugar.',
  ],
  closers: [
    'Whatever happened next, {name} knew there was no going back now.',
    '{name} made a decision and stepped forward.',
    'The night was only beginning.',
    'And then, very clearly, someone called {name} by name.',
    'It was time to find out what {thing} was meant to open.',
  ],
  narrator: 'the traveller',
};

const ZH = {
  places: ['港口', '旧图书馆', '林间小路', '集市广场', '灯塔下', '车站月台', '屋顶花园', '窄巷深处'],
  things: ['一把黄铜钥匙', '一封折好的信', '一盏提灯', '一张撕破的地图', '一枚银币', '一个八音盒', '一只怀表', '一个封好的信封'],
  weather: ['雨点轻轻敲着窗', '海上吹来一阵冷风', '暮色把一切染成了琥珀色', '雾气慢慢漫过街道', '星星一颗接一颗地亮了起来', '远处隐约传来雷声'],
  feelings: ['有些不安', '满心好奇', '怀着一丝希望', '格外警惕', '出奇地平静', '下定了决心'],
  openers: ['{weather}，{name}停下脚步，侧耳倾听。', '一时间，谁也没有开口。', '{name}深吸一口气，打量着{place}。', '身后不远处，一扇门轻轻合上了。', '天色比{name}想的要晚。'],
  middles: [
    '{name}注意到阴影里半藏着{thing}，像是有人故意留在那里的。',
    '一个穿灰色大衣的陌生人在{place}的另一头望着这边，随即匆匆转过身去。',
    '“我们不能在这里待太久。”{name}低声说，心里{feeling}。',
    '上一次见面的情形又浮现在眼前，比从前更清晰，还带着一个谁也没回答过的问题。',
    '{name}把{thing}翻来覆去地看，它比想象中要温热。',
    '一个孩子笑着跑过，掉下一张纸条，上面只写了两个字：“今晚”。',
    '脚步声在{place}回响，不紧不慢，越来越近。',
    '空气里有烟和海盐的味道，底下还藏着一丝甜，像烧焦的糖。',
  ],
  closers: ['无论接下来发生什么，{name}都明白已经没有回头路了。', '{name}拿定主意，向前迈了一步。', '夜晚才刚刚开始。', '就在这时，有人清清楚楚地喊出了{name}的名字。', '是时候弄清楚{thing}究竟能打开什么了。'],
  narrator: '旅人',
};

/** The places and things the demo writes about (the demo's task goals name them). */
export function demoWords(language: DemoLanguage): { places: readonly string[]; things: readonly string[] } {
  const bank = language === 'zh' ? ZH : EN;
  return { places: bank.places, things: bank.things };
}

/** A small seeded generator, so a run can be repeated in tests. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** zh when at least a fifth of the letters are CJK. */
export function detectLanguage(text: string): DemoLanguage {
  const sample = text.slice(-4000);
  const cjk = (sample.match(/[\u3400-\u9fff]/g) ?? []).length;
  const letters = (sample.match(/[A-Za-z\u3400-\u9fff]/g) ?? []).length;
  return letters > 0 && cjk / letters >= 0.2 ? 'zh' : 'en';
}

/**
 * A name to write about: the player's role as the prompt names it ("writes as Mara", "以「玛拉」的身份"),
 * else the role of a "Name: line", else a neutral one.
 */
export function pickName(lastUserText: string, language: DemoLanguage): string {
  if (/writes as the narrator|以旁白的身份/.test(lastUserText)) return language === 'zh' ? ZH.narrator : EN.narrator;
  const named = /writes as ([^\n:]{1,40}?):|以「([^」]{1,40})」的身份/.exec(lastUserText);
  if (named) return (named[1] ?? named[2]).trim();
  const match = /(?:^|\n)\s*([^\n:：]{1,24})[:：]/.exec(lastUserText.split('\n').slice(-6).join('\n'));
  return match?.[1]?.trim() || (language === 'zh' ? ZH.narrator : EN.narrator);
}

/** One continuation of three to six sentences. */
export function demoContinuation(language: DemoLanguage, name: string, random: () => number): string {
  const bank = language === 'zh' ? ZH : EN;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const fill = (template: string) =>
    template
      .replace(/\{name\}/g, name)
      .replace(/\{place\}/g, pick(bank.places))
      .replace(/\{thing\}/g, pick(bank.things))
      .replace(/\{weather\}/g, pick(bank.weather))
      .replace(/\{feeling\}/g, pick(bank.feelings));
  const middles = [...bank.middles].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
  const sentences = [pick(bank.openers), ...middles, pick(bank.closers)].map(fill);
  if (language === 'zh') return sentences.join('');
  // A sentence that starts with the name ("the traveller ...") starts with a capital.
  return sentences.map((t) => t.replace(/^(["“]?)([a-z])/, (_, q: string, c: string) => q + c.toUpperCase())).join(' ');
}

/** A crude summary for fold requests: the first sentence of each paragraph, shortened. */
export function demoSummary(previous: string, text: string, language: DemoLanguage): string {
  const firsts = text
    .split(/\n+/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => (language === 'zh' ? (p.split(/(?<=[。！？])/)[0] ?? p) : (p.split(/(?<=[.!?])\s/)[0] ?? p)))
    .slice(-8)
    .join(language === 'zh' ? '' : ' ');
  const joined = [previous.trim(), firsts].filter(Boolean).join(language === 'zh' ? '' : ' ');
  return joined.length > 1200 ? joined.slice(-1200) : joined;
}
