import { PNG } from 'pngjs';
import { eachTextDot, GLYPH_HEIGHT, textCells } from './pixel-font';

/**
 * The offline demo generator: draws a real picture from a prompt, deterministically (the same prompt
 * gives the same picture). The scene's palette, weather, landscape and objects come from the prompt's
 * words and a hash of it; the figures from the "Characters:" part, so a story's character sheet gives
 * its characters the same colours in every picture. A "DEMO" badge says what it is.
 */
export function renderDemoPicture(prompt: string, width: number, height: number): Promise<Buffer> {
  const canvas = new Canvas(width, height);
  const { scene, characters } = splitPrompt(prompt);
  const random = seeded(hash(scene || prompt));
  const words = scene.toLowerCase();
  const has = (re: RegExp) => re.test(words);
  const night = has(/night|moon|star|midnight|dark|夜|月|星/);
  const dusk = !night && has(/sunset|dusk|evening|dawn|twilight|黄昏|傍晚|夕阳|黎明|晚霞/);
  const rain = has(/rain|storm|thunder|雨|暴风|雷/);
  const snow = has(/snow|winter|ice|frost|雪|冬|冰/);
  const water = has(/sea|ocean|lake|river|harbou?r|pier|ferry|boat|shore|beach|海|湖|河|港|码头|船|岸/);
  const forest = has(/forest|tree|wood|grove|jungle|森林|树|林/);
  const town = has(/city|town|street|house|castle|village|tower|roof|城|街|房|屋|堡|村|塔/);

  // Sky.
  const hue = random() * 360;
  const [skyTop, skyBottom] = night
    ? [hsl(230, 0.55, 0.12), hsl(250, 0.45, 0.3)]
    : dusk
      ? [hsl(265, 0.45, 0.45), hsl(25, 0.9, 0.68)]
      : rain
        ? [hsl(215, 0.12, 0.42), hsl(210, 0.1, 0.7)]
        : [hsl(200 + (hue % 30), 0.65, 0.55), hsl(190, 0.55, 0.86)];
  const horizon = Math.round(height * (0.52 + random() * 0.12));
  canvas.verticalGradient(0, horizon, skyTop, skyBottom);

  // Sun or moon, stars.
  const orbX = width * (0.15 + random() * 0.7);
  const orbY = horizon * (0.2 + random() * 0.35);
  const orbR = Math.min(width, height) * (0.06 + random() * 0.04);
  if (night) {
    for (let i = 0; i < 60; i++) canvas.circle(random() * width, random() * horizon * 0.9, 0.6 + random() * 1.4 * (width / 512), [255, 255, 235], 0.5 + random() * 0.5);
    canvas.circle(orbX, orbY, orbR, [245, 243, 220], 1);
    canvas.circle(orbX + orbR * 0.35, orbY - orbR * 0.2, orbR * 0.85, skyTop, 1);
  } else if (!rain) {
    canvas.circle(orbX, orbY, orbR * 1.9, dusk ? [255, 190, 120] : [255, 250, 210], 0.25);
    canvas.circle(orbX, orbY, orbR, dusk ? [255, 140, 80] : [255, 236, 150], 1);
  }
  // Clouds.
  const clouds = rain ? 7 : Math.floor(random() * 4);
  for (let i = 0; i < clouds; i++) {
    const cx = random() * width;
    const cy = horizon * (0.1 + random() * 0.5);
    const s = width * (0.05 + random() * 0.05);
    const shade: Rgb = rain ? [150, 155, 165] : night ? [70, 75, 110] : [255, 255, 255];
    for (let k = 0; k < 4; k++) canvas.circle(cx + (k - 1.5) * s * 0.9, cy + (k % 2) * s * 0.25, s * (0.8 + (k % 2) * 0.3), shade, 0.85);
  }

  // Far ridge: mountains or hills.
  const groundHue = snow ? 0 : forest ? 120 + random() * 30 : 70 + random() * 60;
  const farColor = night ? hsl(240, 0.3, 0.22) : hsl(groundHue + 80, 0.25, snow ? 0.8 : 0.5);
  const peaks = 2 + Math.floor(random() * 4);
  canvas.ridge(farColor, (x) => horizon - height * 0.18 * Math.abs(Math.sin((x / width) * Math.PI * peaks + random.fixed)));

  // Ground, or water below the horizon.
  const ground = snow ? hsl(210, 0.2, night ? 0.55 : 0.93) : hsl(groundHue, 0.45, night ? 0.18 : 0.42);
  if (water) {
    canvas.verticalGradient(horizon, height, night ? hsl(225, 0.5, 0.2) : hsl(200, 0.6, 0.45), night ? hsl(230, 0.5, 0.1) : hsl(210, 0.65, 0.3));
    for (let i = 0; i < 40; i++) {
      const y = horizon + random() * (height - horizon);
      canvas.rect(random() * width, y, width * (0.03 + random() * 0.08), Math.max(1, height / 400), [255, 255, 255], 0.25);
    }
    // A near shore for the figures to stand on.
    canvas.ridge(ground, (x) => height * 0.8 + height * 0.05 * Math.sin((x / width) * Math.PI * 1.3 + 1));
    if (has(/boat|ferry|ship|船/)) drawBoat(canvas, width * (0.55 + random() * 0.3), horizon + (height - horizon) * 0.25, width * 0.14);
  } else {
    canvas.ridge(ground, (x) => horizon + height * 0.04 * Math.sin((x / width) * Math.PI * 2 + random.fixed));
  }

  if (town) {
    const count = 4 + Math.floor(random() * 5);
    for (let i = 0; i < count; i++) {
      const w = width * (0.06 + random() * 0.07);
      const h = height * (0.1 + random() * 0.2);
      const x = random() * (width - w);
      const wall = night ? hsl(230, 0.2, 0.2 + random() * 0.1) : hsl(20 + random() * 30, 0.3, 0.5 + random() * 0.2);
      canvas.rect(x, horizon - h, w, h + 2, wall, 1);
      canvas.polygon([[x - w * 0.1, horizon - h], [x + w / 2, horizon - h - w * 0.6], [x + w * 1.1, horizon - h]], hsl(5, 0.5, night ? 0.2 : 0.4), 1);
      const lit: Rgb = night ? [255, 214, 120] : [60, 70, 90];
      for (let wy = horizon - h + h * 0.15; wy < horizon - h * 0.2; wy += h * 0.25) canvas.rect(x + w * 0.3, wy, w * 0.4, h * 0.1, lit, 0.9);
    }
  }
  if (forest) {
    const count = 6 + Math.floor(random() * 8);
    for (let i = 0; i < count; i++) drawTree(canvas, random() * width, horizon + random() * height * 0.08, height * (0.12 + random() * 0.14), night, random());
  }

  // The characters, standing in the foreground.
  const figures = characters.length ? characters.slice(0, 3) : [scene.slice(0, 40)];
  const base = water ? height * 0.82 : horizon + (height - horizon) * 0.55;
  const figureH = Math.min(height * 0.34, width * 0.5);
  figures.forEach((who, i) => {
    const x = width * ((i + 1) / (figures.length + 1)) + (random() - 0.5) * width * 0.08;
    drawFigure(canvas, x, base, figureH * (0.9 + random() * 0.15), who, night);
  });

  if (rain) for (let i = 0; i < 260; i++) canvas.line(random() * width, random() * height, -width * 0.01, height * 0.04, [210, 220, 235], 0.45);
  if (snow) for (let i = 0; i < 180; i++) canvas.circle(random() * width, random() * height, (0.8 + random() * 1.6) * (width / 512), [255, 255, 255], 0.85);

  drawBadge(canvas, 'DEMO');
  return canvas.encode();
}

/** The scene text and the character entries ("Name: look") of a prompt composed by picture-prompt.ts. */
export function splitPrompt(prompt: string): { scene: string; characters: string[] } {
  const at = prompt.search(/(^|\n)\s*(Characters|角色)\s*[:：]/i);
  if (at < 0) return { scene: prompt.trim(), characters: [] };
  const sheet = prompt.slice(at).replace(/^\s*(Characters|角色)\s*[:：]\s*/i, '');
  const characters = sheet
    .split(/\n|;|；/)
    .map((s) => s.replace(/^[\s\-*•\d.]+/, '').trim())
    .filter((s) => s.length > 1);
  return { scene: prompt.slice(0, at).trim(), characters };
}

type Rgb = readonly [number, number, number];

// A character: body, head, hair and an accessory, coloured from a hash of its sheet entry, so the same
// entry looks the same in every picture.
function drawFigure(c: Canvas, x: number, feet: number, h: number, who: string, night: boolean): void {
  const r = seeded(hash(who.toLowerCase().replace(/\s+/g, ' ')));
  const dim = night ? 0.6 : 1;
  const coat = hsl(r() * 360, 0.55 + r() * 0.3, (0.35 + r() * 0.25) * dim);
  const skin = hsl(20 + r() * 20, 0.45, (0.45 + r() * 0.35) * dim);
  const hair = hsl(r() * 50, 0.4 + r() * 0.4, (0.1 + r() * 0.5) * dim);
  const legs = hsl(220 + r() * 40, 0.2, 0.2 * dim + 0.05);
  const w = h * (0.26 + r() * 0.1);
  const headR = h * 0.11;
  const shoulder = feet - h * 0.72;
  c.rect(x - w * 0.3, feet - h * 0.32, w * 0.22, h * 0.32, legs, 1);
  c.rect(x + w * 0.08, feet - h * 0.32, w * 0.22, h * 0.32, legs, 1);
  c.polygon([[x - w * 0.38, shoulder], [x + w * 0.38, shoulder], [x + w * 0.55, feet - h * 0.28], [x - w * 0.55, feet - h * 0.28]], coat, 1);
  c.rect(x - w * 0.62, shoulder + h * 0.02, w * 0.16, h * 0.34, coat, 1);
  c.rect(x + w * 0.46, shoulder + h * 0.02, w * 0.16, h * 0.34, coat, 1);
  const headY = shoulder - headR * 1.05;
  c.circle(x, headY, headR, skin, 1);
  if (r() < 0.5) c.polygon([[x - headR * 1.15, headY - headR * 0.1], [x, headY - headR * 1.5], [x + headR * 1.15, headY - headR * 0.1]], hair, 1);
  else c.rect(x - headR * 1.05, headY - headR * 1.1, headR * 2.1, headR * 0.75, hair, 1);
  if (r() < 0.4) c.rect(x - w * 0.4, shoulder + h * 0.12, w * 0.8, h * 0.05, hsl(r() * 360, 0.7, 0.55 * dim), 1);
}

function drawTree(c: Canvas, x: number, base: number, h: number, night: boolean, tone: number): void {
  const trunk = hsl(25, 0.4, night ? 0.12 : 0.25);
  const leaves = hsl(100 + tone * 50, 0.45, night ? 0.12 : 0.25 + tone * 0.1);
  c.rect(x - h * 0.04, base - h * 0.3, h * 0.08, h * 0.3, trunk, 1);
  c.polygon([[x - h * 0.25, base - h * 0.25], [x, base - h], [x + h * 0.25, base - h * 0.25]], leaves, 1);
}

function drawBoat(c: Canvas, x: number, y: number, w: number): void {
  c.polygon([[x - w / 2, y], [x + w / 2, y], [x + w * 0.35, y + w * 0.2], [x - w * 0.35, y + w * 0.2]], [120, 70, 40], 1);
  c.rect(x - w * 0.02, y - w * 0.55, w * 0.04, w * 0.55, [90, 60, 40], 1);
  c.polygon([[x + w * 0.03, y - w * 0.5], [x + w * 0.35, y - w * 0.1], [x + w * 0.03, y - w * 0.1]], [245, 240, 225], 1);
}

function drawBadge(c: Canvas, text: string): void {
  const scale = Math.max(2, Math.round(c.width / 160));
  const pad = scale * 3;
  const w = textCells(text) * scale + pad * 2;
  const h = GLYPH_HEIGHT * scale + pad * 2;
  const x0 = scale * 4;
  const y0 = c.height - h - scale * 4;
  c.rect(x0, y0, w, h, [17, 24, 39], 0.78);
  eachTextDot(text, (cx, cy) => c.rect(x0 + pad + cx * scale, y0 + pad + cy * scale, scale, scale, [255, 255, 255], 1));
}

/** An RGBA buffer with the few shapes the demo draws; opaque fills are word writes, the rest alpha-blended. */
class Canvas {
  readonly data: Buffer;
  private readonly words: Uint32Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const memory = new ArrayBuffer(width * height * 4);
    this.data = Buffer.from(memory);
    this.words = new Uint32Array(memory);
    this.words.fill(0xffffffff);
  }

  private blend(i: number, [r, g, b]: Rgb, a: number): void {
    const d = this.data;
    d[i] = d[i] + (r - d[i]) * a;
    d[i + 1] = d[i + 1] + (g - d[i + 1]) * a;
    d[i + 2] = d[i + 2] + (b - d[i + 2]) * a;
  }

  // RGBA in memory order as one little-endian word.
  private static word([r, g, b]: Rgb): number {
    return ((255 << 24) | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r)) >>> 0;
  }

  private span(y: number, x0: number, x1: number, color: Rgb, a: number): void {
    if (y < 0 || y >= this.height) return;
    const from = Math.max(0, Math.round(x0));
    const to = Math.min(this.width, Math.round(x1));
    if (to <= from) return;
    if (a >= 1) {
      this.words.fill(Canvas.word(color), y * this.width + from, y * this.width + to);
      return;
    }
    for (let x = from; x < to; x++) this.blend((y * this.width + x) * 4, color, a);
  }

  verticalGradient(y0: number, y1: number, top: Rgb, bottom: Rgb): void {
    for (let y = Math.max(0, y0); y < Math.min(this.height, y1); y++) {
      const t = (y - y0) / Math.max(1, y1 - y0);
      this.span(y, 0, this.width, [top[0] + (bottom[0] - top[0]) * t, top[1] + (bottom[1] - top[1]) * t, top[2] + (bottom[2] - top[2]) * t], 1);
    }
  }

  rect(x: number, y: number, w: number, h: number, color: Rgb, a: number): void {
    for (let yy = Math.round(y); yy < Math.round(y + h); yy++) this.span(yy, x, x + w, color, a);
  }

  circle(cx: number, cy: number, r: number, color: Rgb, a: number): void {
    for (let y = Math.floor(cy - r); y <= Math.ceil(cy + r); y++) {
      const dy = y + 0.5 - cy;
      if (Math.abs(dy) > r) continue;
      const dx = Math.sqrt(r * r - dy * dy);
      this.span(y, cx - dx, cx + dx, color, a);
    }
  }

  /** Fills everything below the curve y = top(x). */
  ridge(color: Rgb, top: (x: number) => number): void {
    const word = Canvas.word(color);
    for (let x = 0; x < this.width; x++) {
      for (let y = Math.max(0, Math.round(top(x))); y < this.height; y++) this.words[y * this.width + x] = word;
    }
  }

  polygon(points: [number, number][], color: Rgb, a: number): void {
    const ys = points.map((p) => p[1]);
    for (let y = Math.max(0, Math.floor(Math.min(...ys))); y <= Math.min(this.height - 1, Math.ceil(Math.max(...ys))); y++) {
      const cy = y + 0.5;
      const xs: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const [x1, y1] = points[i];
        const [x2, y2] = points[(i + 1) % points.length];
        if ((y1 <= cy && y2 > cy) || (y2 <= cy && y1 > cy)) xs.push(x1 + ((cy - y1) / (y2 - y1)) * (x2 - x1));
      }
      xs.sort((p, q) => p - q);
      for (let i = 0; i + 1 < xs.length; i += 2) this.span(y, xs[i], xs[i + 1], color, a);
    }
  }

  line(x: number, y: number, dx: number, dy: number, color: Rgb, a: number): void {
    const steps = Math.ceil(Math.max(Math.abs(dx), Math.abs(dy)));
    for (let i = 0; i <= steps; i++) {
      const px = Math.round(x + (dx * i) / steps);
      const py = Math.round(y + (dy * i) / steps);
      if (px >= 0 && px < this.width && py >= 0 && py < this.height) this.blend((py * this.width + px) * 4, color, a);
    }
  }

  /** A PNG (RGB); deflate runs off the main thread. */
  encode(): Promise<Buffer> {
    // RGB handed over as such (pngjs's own conversion from RGBA reads each pixel through a function call),
    // and one filter (Paeth) for every row instead of trying all five per row: at 1024x1024, 384-401 ->
    // 100-108 ms of CPU a picture, and 39 KB instead of 46 (the scenes are gradients and flat shapes).
    const rgb = Buffer.allocUnsafe(this.width * this.height * 3);
    const rgba = this.data;
    for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
      rgb[o] = rgba[i];
      rgb[o + 1] = rgba[i + 1];
      rgb[o + 2] = rgba[i + 2];
    }
    const png = new PNG({ width: this.width, height: this.height, colorType: 2, inputColorType: 2, inputHasAlpha: false, filterType: 4 });
    png.data = rgb;
    return new Promise((done, fail) => {
      const parts: Buffer[] = [];
      png.pack().on('data', (c: Buffer) => parts.push(c)).once('end', () => done(Buffer.concat(parts))).once('error', fail);
    });
  }
}

function hsl(h: number, s: number, l: number): Rgb {
  const hue = (((h % 360) + 360) % 360) / 360;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return [Math.round(channel(hue + 1 / 3) * 255), Math.round(channel(hue) * 255), Math.round(channel(hue - 1 / 3) * 255)];
}

/** FNV-1a over the UTF-16 code units. */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

type Random = (() => number) & { fixed: number };

// mulberry32, plus one fixed draw for shapes that must not shift when more draws are added.
function seeded(seed: number): Random {
  let a = seed >>> 0;
  const next = (() => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }) as Random;
  next.fixed = next() * Math.PI * 2;
  return next;
}
