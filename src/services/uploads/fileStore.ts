// Local-disk storage for user files (attachments, custom emoji), addressed by a relative key
// such as `user_uploads/<realm_id>/<random>/<name>`. Everything lives under <uploadsDir>/store,
// apart from the temp files the multipart parser writes into uploadsDir itself.
import fs from "node:fs/promises";
import path from "node:path";

export interface StoredFile {
  absolutePath: string;
  size: number;
}

export interface FileStore {
  /** Moves a temp file (written by the multipart parser) into the store. */
  putFromTemp(key: string, tempPath: string): Promise<void>;
  putBuffer(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<StoredFile | undefined>;
  delete(key: string): Promise<void>;
}

/** Keys are relative, '/'-separated, with no empty, '.' or '..' segments (no path traversal). */
export function isValidKey(key: string): boolean {
  const parts = key.split("/");
  return (
    parts.length > 0 &&
    parts.every((p) => p !== "" && p !== "." && p !== ".." && !p.includes("\\") && !p.includes("\0"))
  );
}

export function createFileStore(uploadsDir: string): FileStore {
  const root = path.join(uploadsDir, "store");
  const locate = (key: string): string => {
    if (!isValidKey(key)) throw new Error("invalid file store key");
    return path.join(root, ...key.split("/"));
  };

  async function removeEmptyParents(file: string): Promise<void> {
    let dir = path.dirname(file);
    while (dir.startsWith(root + path.sep)) {
      try {
        await fs.rmdir(dir); // fails (and stops) as soon as a directory still has entries
      } catch {
        return;
      }
      dir = path.dirname(dir);
    }
  }

  return {
    async putFromTemp(key, tempPath) {
      const target = locate(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      try {
        await fs.rename(tempPath, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
        await fs.copyFile(tempPath, target);
        await fs.rm(tempPath, { force: true });
      }
    },
    async putBuffer(key, data) {
      const target = locate(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, data);
    },
    async get(key) {
      if (!isValidKey(key)) return undefined;
      const absolutePath = locate(key);
      try {
        const stat = await fs.stat(absolutePath);
        return stat.isFile() ? { absolutePath, size: stat.size } : undefined;
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      const target = locate(key);
      await fs.rm(target, { force: true });
      await removeEmptyParents(target);
    },
  };
}
