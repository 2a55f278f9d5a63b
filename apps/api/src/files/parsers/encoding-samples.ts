// Texts the encodings tests write in each encoding (test data, kept beside the parser it checks).
const SIMPLIFIED_PARAGRAPHS = [
  '第一章 雨夜',
  '林默推开门，看见院子里站着一个陌生人。他手里提着一盏灯笼，灯光照亮了满地的落叶。',
  '“你是谁？”她问。陌生人没有回答，只是把灯笼举高了一些，露出一张被雨水打湿的脸。',
  '远处传来钟声，一共敲了十二下。村子里的狗都不叫了，连风也停了下来。',
  '她想起母亲临终前说过的话：不要在午夜给任何人开门。可是现在已经太晚了。',
];
const TRADITIONAL_PARAGRAPHS = [
  '第一章 雨夜',
  '林默推開門，看見院子裡站著一個陌生人。他手裡提著一盞燈籠，燈光照亮了滿地的落葉。',
  '「你是誰？」她問。陌生人沒有回答，只是把燈籠舉高了一些，露出一張被雨水打濕的臉。',
  '遠處傳來鐘聲，一共敲了十二下。村子裡的狗都不叫了，連風也停了下來。',
  '她想起母親臨終前說過的話：不要在午夜給任何人開門。可是現在已經太晚了。',
];
const CANTONESE_PARAGRAPHS = [
  '第一章 落雨夜',
  '佢哋喺度食緊飯㗎，阿媽話今晚唔好出街，外面落緊好大雨。',
  '「你係邊個？」佢問。嗰個人冇答佢，淨係將個燈籠舉高咗啲。',
];
const JAPANESE_PARAGRAPHS = [
  '第一章 雨の夜',
  '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。',
  '何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。',
];
const KOREAN_PARAGRAPHS = [
  '제1장 비 오는 밤',
  '나는 고양이로소이다. 이름은 아직 없다. 어디서 태어났는지 전혀 모르겠다.',
  '어두컴컴하고 축축한 곳에서 야옹야옹 울고 있었던 것만은 기억하고 있다.',
];

// A long text: the paragraphs again and again, numbered, about 20 000 characters.
function long(paragraphs: string[], numbered: (n: number) => string): string {
  const out: string[] = [];
  for (let n = 1; out.join('\n').length < 20_000; n++) out.push(numbered(n), ...paragraphs.slice(1));
  return out.join('\n');
}

export interface EncodingSample {
  short: string;
  long: string;
  /** iconv-lite's names of the encodings this text is written in. */
  encodings: string[];
}

export const SAMPLES: Record<string, EncodingSample> = {
  simplified: {
    short: SIMPLIFIED_PARAGRAPHS[1],
    long: long(SIMPLIFIED_PARAGRAPHS, (n) => `第${n}章 雨夜`),
    encodings: ['utf8', 'utf16le', 'utf16be', 'gbk', 'gb18030'],
  },
  traditional: {
    short: TRADITIONAL_PARAGRAPHS[1],
    long: long(TRADITIONAL_PARAGRAPHS, (n) => `第${n}章 雨夜`),
    encodings: ['utf8', 'utf16le', 'utf16be', 'big5', 'gb18030'],
  },
  cantonese: {
    short: CANTONESE_PARAGRAPHS[1],
    long: long(CANTONESE_PARAGRAPHS, (n) => `第${n}章 落雨夜`),
    encodings: ['big5hkscs', 'utf16le'],
  },
  japanese: {
    short: JAPANESE_PARAGRAPHS[1],
    long: long(JAPANESE_PARAGRAPHS, (n) => `第${n}章 雨の夜`),
    encodings: ['shift_jis', 'euc-jp'],
  },
  korean: {
    short: KOREAN_PARAGRAPHS[1],
    long: long(KOREAN_PARAGRAPHS, (n) => `제${n}장 비 오는 밤`),
    encodings: ['euc-kr'],
  },
};
