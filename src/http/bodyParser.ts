// Reads request parameters into ctx.state.rawParams (query string first, body over it).
// Urlencoded and JSON bodies are read here as bytes so invalid UTF-8 is a 400, not silently
// replaced; multipart (the JS client sends every POST that way) goes through koa-body/formidable.
import fs from "node:fs/promises";
import type { Context, Next } from "koa";
import type formidable from "formidable";
import type { koaBody as KoaBody } from "koa-body";
import getRawBody from "raw-body";
import { ApiError, Errors } from "../errors";
import { decodeUtf8, parseUrlencoded } from "../formEncoding";
import { JsonTooDeepError, parseJson } from "../json";

/**
 * koa-body (with formidable and zod) is loaded on the first multipart request, not with the app:
 * its ~90 ms are most of a test file's start-up that never sends multipart, and the tests start
 * the app once per file. The server process loads it as soon as it listens (main.ts), so no
 * request waits for it there.
 */
let koaBodyFn: typeof KoaBody | undefined;
export function loadMultipartParser(): typeof KoaBody {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  koaBodyFn ??= (require("koa-body") as typeof import("koa-body")).koaBody;
  return koaBodyFn;
}

/** Most fields (text and files) one multipart request may carry. */
const MAX_FIELDS = 1000;

// Strict decoding lives in a leaf module (the webhook pipeline uses it too); re-exported for callers here.
export { decodeUtf8, parseUrlencoded };

export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit, length: ctx.get("content-length") || undefined });
  } catch (err) {
    const e = err as { type?: string; status?: number };
    if (e.type === "entity.too.large" || e.status === 413) throw Errors.tooLarge("Request body", limit);
    throw new ApiError("BAD_REQUEST", "Could not read the request body");
  }
}

export function bodyParser(options: { maxBodyBytes: number; maxUploadBytes: number; uploadDir: string }) {
  // Built per request so each request knows the temp files formidable opened for it (see removeTempFiles).
  const multipart = (tempFiles: TempFile[], textFields: TextFields) =>
    loadMultipartParser()({
      multipart: true,
      urlencoded: false,
      json: false,
      text: false,
      formidable: {
        maxFileSize: options.maxUploadBytes,
        maxFieldsSize: options.maxBodyBytes,
        maxFields: MAX_FIELDS,
        maxTotalFileSize: options.maxUploadBytes,
        uploadDir: options.uploadDir,
        keepExtensions: false,
        onFileBegin: (_name: string, file: unknown) => void tempFiles.push(file as TempFile),
        onPart: (part, handle) => handle(readTextPart(part, textFields)),
      },
      onError: (err: Error) => {
        const e = err as { httpCode?: number; code?: number };
        // formidable's codes: 1006 text fields over maxFieldsSize, 1009/1016 files over maxFileSize.
        if (e.code === 1006) throw Errors.tooLarge("Multipart text", options.maxBodyBytes);
        if (e.code === 1007) throw new ApiError("BAD_REQUEST", `Too many multipart fields: the limit is ${MAX_FIELDS}`);
        if (e.httpCode === 413 || e.code === 1009 || e.code === 1016)
          throw Errors.tooLarge("Upload", options.maxUploadBytes);
        throw new ApiError("BAD_REQUEST", `Malformed multipart body: ${err.message}`);
      },
    });

  return async (ctx: Context, next: Next): Promise<void> => {
    const tempFiles: TempFile[] = [];
    try {
      await parseAndRun(ctx, next, tempFiles);
    } finally {
      // Handlers move the files they keep; whatever is still at its temp path (parse errors,
      // auth failures, endpoints that take no files) is deleted so uploads never pile up on disk.
      await removeTempFiles(tempFiles);
    }
  };

  async function parseAndRun(ctx: Context, next: Next, tempFiles: TempFile[]): Promise<void> {
    const params: Record<string, unknown> = parseUrlencoded(ctx.querystring, "Query string");
    const type = ctx.request.type;
    if (type === "multipart/form-data") {
      const textFields: TextFields = { values: Object.create(null) as TextFields["values"], invalid: [] };
      await multipart(tempFiles, textFields)(ctx, async () => undefined);
      if (textFields.invalid.length > 0) {
        const name = textFields.invalid[0];
        throw Errors.invalidParam(name, `Multipart field '${name}' is not valid UTF-8`);
      }
      // Our own reading of the text fields, not formidable's: its field object has a prototype, so
      // a field named `__proto__` became that prototype instead of a parameter.
      for (const [name, values] of Object.entries(textFields.values))
        params[name] = values.length === 1 ? values[0] : values;
    } else if (
      (ctx.method !== "GET" && ctx.method !== "HEAD" && (ctx.request.length ?? 0) > 0) ||
      ctx.get("transfer-encoding")
    ) {
      const raw = await readRawBody(ctx, options.maxBodyBytes);
      const text = decodeUtf8(raw);
      if (type === "application/json") {
        if (text.trim() !== "") {
          let parsed: unknown;
          try {
            parsed = parseJson(text);
          } catch (err) {
            if (err instanceof JsonTooDeepError) throw err;
            throw Errors.malformedJson();
          }
          if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
            throw new ApiError("BAD_REQUEST", "A JSON request body must be an object of parameters");
          }
          // Non-string JSON values are kept as their JSON text, as if they had been form-encoded.
          for (const [k, v] of Object.entries(parsed)) params[k] = typeof v === "string" ? v : JSON.stringify(v);
        }
      } else {
        Object.assign(params, parseUrlencoded(text));
      }
    }
    ctx.state.rawParams = params;
    await next();
  }
}

/** A multipart request's text fields as read strictly (readTextPart), by name; names of invalid ones. */
interface TextFields {
  values: Record<string, string[]>;
  invalid: string[];
}

/** formidable's part: a stream of the part's bytes (with a base64 transfer encoding undone). */
type Part = formidable.Part & { transferEncoding?: string };

/**
 * A text part (no Content-Type) is decoded here as strict UTF-8, whatever its Content-Transfer-Encoding
 * says (formidable replaced invalid bytes with U+FFFD, and read `binary` as Latin-1). formidable still
 * reads the part too, for its size and count limits; its copy of the value is not used.
 */
function readTextPart(part: Part, fields: TextFields): Part {
  if (part.mimetype) return part;
  // A part with a file name is a file even without a Content-Type (the Python client sends its
  // uploads so); formidable decides by the type alone.
  if (typeof part.originalFilename === "string" && part.originalFilename !== "") {
    part.mimetype = "application/octet-stream";
    return part;
  }
  const name = part.name ?? "";
  part.transferEncoding = "utf-8";
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let value = "";
  let valid = true;
  const take = (chunk?: Buffer) => {
    if (!valid) return;
    try {
      value += chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      valid = false;
      fields.invalid.push(name);
    }
  };
  part.on("data", (chunk: Buffer) => take(chunk));
  part.on("end", () => {
    take();
    if (valid) (fields.values[name] ??= []).push(value);
  });
  return part;
}

/** What we use of formidable's PersistentFile. */
interface TempFile {
  filepath: string;
  _writeStream?: { closed?: boolean; once(event: "close", fn: () => void): unknown };
}

/**
 * formidable unlinks its files itself after a parse error, but may do so before the write stream
 * has even created the file, which then stays. So: wait for each stream to close, then delete.
 */
async function removeTempFiles(files: TempFile[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      const stream = file._writeStream;
      if (stream && !stream.closed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000);
          stream.once("close", () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      await fs.rm(file.filepath, { force: true }).catch(() => undefined);
    }),
  );
}
