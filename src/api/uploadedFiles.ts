// The files of a multipart request, as written to temp files by the body parser. The body parser
// deletes whatever is still at its temp path when the request ends, so handlers only move what they keep.
import type { Context } from "koa";

export interface UploadedFile {
  field: string;
  tempPath: string;
  originalName: string;
  size: number;
}

export function uploadedFiles(ctx: Context): UploadedFile[] {
  const out: UploadedFile[] = [];
  for (const [field, value] of Object.entries(ctx.request.files ?? {})) {
    for (const file of Array.isArray(value) ? value : [value]) {
      out.push({ field, tempPath: file.filepath, originalName: file.originalFilename ?? "", size: file.size });
    }
  }
  return out;
}
