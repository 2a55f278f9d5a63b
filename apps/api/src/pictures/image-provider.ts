import { ErrorCode } from '@taleloom/contracts';
import type OpenAI from 'openai';
import { APIError } from 'openai/error';
import { loadOpenAI } from '../models/openai-sdk';

export interface ImageRequest {
  baseURL: string;
  apiKey: string;
  model: string;
  prompt: string;
  /** WIDTHxHEIGHT as the endpoint takes it. */
  size: string;
  /** b64_json asks for the picture inline; none leaves response_format out (some models refuse it). */
  responseFormat: 'b64_json' | 'none';
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface GeneratedImage {
  data: Buffer;
  contentType: string;
  /** From the file itself when it says (PNG, JPEG); 0 when unknown. */
  width: number;
  height: number;
}

/** A failed drawing, with the code the user is told; nothing is charged for it. */
export class PictureFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    detail: string,
  ) {
    super(detail);
    this.name = 'PictureFailure';
  }
}

// A picture larger than this is refused (no sane illustration is).
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * The one images provider: OpenAI-compatible `images.generate` through the `openai` SDK. The
 * operator's endpoint, the offline demo generator and the test stub all go through it.
 */
export class ImageProvider {
  private readonly clients = new Map<string, Promise<OpenAI>>();

  async generate(req: ImageRequest): Promise<GeneratedImage> {
    // Our own timer, as the chat provider does: the SDK may report an aborted request as a connection error.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, req.timeoutMs);
    const onAbort = () => controller.abort(req.signal?.reason);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await (await this.client(req.baseURL, req.apiKey)).images.generate(
        {
          model: req.model,
          prompt: req.prompt,
          n: 1,
          size: req.size as OpenAI.Images.ImageGenerateParams['size'],
          ...(req.responseFormat === 'b64_json' ? { response_format: 'b64_json' as const } : {}),
        },
        { signal: controller.signal },
      );
      return await this.picture(response, controller.signal);
    } catch (error) {
      if (timedOut) throw new PictureFailure(ErrorCode.PROVIDER_TIMEOUT, `no picture within ${req.timeoutMs} ms`);
      if (error instanceof PictureFailure) throw error;
      throw new PictureFailure(ErrorCode.PICTURE_FAILED, describe(error));
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async picture(response: OpenAI.Images.ImagesResponse, signal: AbortSignal): Promise<GeneratedImage> {
    const first = response?.data?.[0];
    let data: Buffer;
    if (first?.b64_json) data = Buffer.from(first.b64_json, 'base64');
    else if (first?.url) data = await download(first.url, signal);
    else throw new PictureFailure(ErrorCode.PICTURE_FAILED, 'the answer carried no picture');
    if (data.length > MAX_IMAGE_BYTES) throw new PictureFailure(ErrorCode.PICTURE_FAILED, `picture of ${data.length} bytes is too large`);
    const type = sniffImage(data);
    if (!type) throw new PictureFailure(ErrorCode.PICTURE_FAILED, 'the answer is not a PNG, JPEG, WebP or GIF picture');
    return { data, contentType: type, ...imageDimensions(data) };
  }

  private client(baseURL: string, apiKey: string): Promise<OpenAI> {
    const key = `${baseURL}\n${apiKey}`;
    let client = this.clients.get(key);
    if (!client) {
      // No SDK retries: a retry would be paid twice by some providers; the user can retry.
      client = loadOpenAI().then(({ OpenAI: Client }) => new Client({ baseURL, apiKey: apiKey || 'none', maxRetries: 0 }));
      this.clients.set(key, client);
    }
    return client;
  }
}

// Some endpoints answer a URL instead of inline data (fetched within the same time limit).
async function download(url: string, signal: AbortSignal): Promise<Buffer> {
  if (!/^https?:\/\//i.test(url)) throw new PictureFailure(ErrorCode.PICTURE_FAILED, 'the picture URL is not http(s)');
  let res: Response;
  try {
    res = await fetch(url, { signal });
  } catch (error) {
    throw new PictureFailure(ErrorCode.PICTURE_FAILED, `downloading the picture failed: ${describe(error)}`);
  }
  if (!res.ok) throw new PictureFailure(ErrorCode.PICTURE_FAILED, `downloading the picture answered ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_IMAGE_BYTES) throw new PictureFailure(ErrorCode.PICTURE_FAILED, `picture of ${declared} bytes is too large`);
  return Buffer.from(await res.arrayBuffer());
}

/** The picture's type from its first bytes, or null when it is none of the four. */
export function sniffImage(data: Buffer): string | null {
  if (data.length >= 8 && data.readUInt32BE(0) === 0x89504e47 && data.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.toString('latin1', 0, 6))) return 'image/gif';
  return null;
}

/** Width and height from a PNG's IHDR; 0 for other types. */
export function imageDimensions(data: Buffer): { width: number; height: number } {
  if (sniffImage(data) === 'image/png' && data.length >= 24 && data.toString('latin1', 12, 16) === 'IHDR') {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  return { width: 0, height: 0 };
}

function describe(error: unknown): string {
  if (error instanceof APIError) return `${error.status ?? 'no status'}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
