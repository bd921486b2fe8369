// Custom emoji images: the type is read from the bytes with sharp (the declared content type
// and file name are never trusted), and animated images get a still first-frame PNG.
import { Errors } from "../../errors";

const FORMATS: Record<string, string> = { png: "png", jpeg: "jpg", gif: "gif", webp: "webp" };
/** Bounds decoding memory: no emoji needs more than 4096×4096 pixels. */
const MAX_PIXELS = 4096 * 4096;

export interface InspectedImage {
  extension: string;
  animated: boolean;
  /** First frame as PNG, for animated images only. */
  still?: Buffer;
}

export async function inspectEmojiImage(filePath: string): Promise<InspectedImage> {
  // sharp (native, with its libvips) is loaded on the first custom emoji, not when the server starts.
  const { default: sharp } = await import("sharp");
  let format: string | undefined;
  let pages: number;
  try {
    const meta = await sharp(filePath, { animated: true, limitInputPixels: MAX_PIXELS }).metadata();
    format = meta.format;
    pages = meta.pages ?? 1;
    // Decode the first frame fully so a truncated or corrupt body is refused, not stored.
    await sharp(filePath, { page: 0, limitInputPixels: MAX_PIXELS }).stats();
  } catch {
    throw Errors.badRequest("Could not decode image; did you upload an image file?");
  }
  const extension = format ? FORMATS[format] : undefined;
  if (!extension) throw Errors.badRequest("Invalid image format");
  const animated = pages > 1;
  if (!animated) return { extension, animated };
  const still = await sharp(filePath, { page: 0, limitInputPixels: MAX_PIXELS }).png().toBuffer();
  return { extension, animated, still };
}
