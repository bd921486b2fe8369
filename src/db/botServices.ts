// The service rows of outgoing-webhook bots: where a bot's deliveries go, in which format, with
// which token (the reference's Service model).
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";

export interface BotServiceRow {
  id: number;
  bot_id: number;
  name: string;
  base_url: string;
  interface: number;
  token: string;
}

export async function insertBotService(q: Queryable, row: Omit<BotServiceRow, "id">): Promise<number> {
  return insertReturningId(q, "bot_services", row);
}

/** The services of these bots, oldest first. */
export async function botServicesOf(q: Queryable, botIds: number[]): Promise<BotServiceRow[]> {
  if (botIds.length === 0) return [];
  const rows = await q<BotServiceRow>("bot_services").whereIn("bot_id", botIds).orderBy("id");
  return rows.map((r) => ({ ...r, id: Number(r.id), bot_id: Number(r.bot_id), interface: Number(r.interface) }));
}

export async function updateBotServices(
  q: Queryable,
  botId: number,
  fields: Partial<Pick<BotServiceRow, "base_url" | "interface">>,
): Promise<void> {
  await q("bot_services").where({ bot_id: botId }).update(fields);
}
