// The view a template sees is the payload plus framework additions (e.g. `item`), so the
// payload is pretty-printed here, before anything is added to it.
import type { TransformContext } from "../../src/webhooks/plugin";

export default function transform(payload: Record<string, unknown>, _context: TransformContext): { pretty: string } {
  return { pretty: JSON.stringify(payload, null, 2) };
}
