// zuliprc files ([api] email/key/site), the credentials format the official clients read.
import fs from "node:fs";
import path from "node:path";

export function zuliprcText(email: string, key: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${key}\nsite=${site}\n`;
}

export function writeZuliprc(file: string, email: string, key: string, site: string): string {
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, zuliprcText(email, key, site), { mode: 0o600 });
  return target;
}
