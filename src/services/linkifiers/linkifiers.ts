// Linkifier administration: create, update, delete, reorder; `realm_linkifiers` events go to
// clients that declared the `linkifier_url_template` capability.
import type { Db, Queryable } from "../../db/knex";
import {
  deleteLinkifier,
  findLinkifier,
  insertLinkifier,
  listLinkifiers,
  updateLinkifier,
  type LinkifierRow,
} from "../../db/linkifiers";
import type { RealmRow, UserRow } from "../../db/rows";
import { withTransaction } from "../../db/transaction";
import { Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import { validateLinkifier, type LinkifierDefinition } from "./rules";
import { activeRealmUserIds } from "../../db/users";
import { assertAdmin } from "../users/users";

export function formatLinkifier(row: LinkifierRow): Record<string, unknown> {
  return {
    id: row.id,
    pattern: row.pattern,
    url_template: row.url_template,
    example_input: row.example_input,
    reverse_template: row.reverse_template,
    alternative_url_templates: JSON.parse(row.alternative_url_templates) as string[],
  };
}

export async function realmLinkifiers(q: Queryable, realmId: number): Promise<Record<string, unknown>[]> {
  return (await listLinkifiers(q, realmId)).map(formatLinkifier);
}

async function linkifiersEvent(q: Queryable, realm: RealmRow): Promise<Notification> {
  return {
    realmId: realm.id,
    userIds: await activeRealmUserIds(q, realm.id),
    event: { type: "realm_linkifiers", realm_linkifiers: await realmLinkifiers(q, realm.id) },
    capability: "linkifier_url_template",
  };
}

function toFields(def: LinkifierDefinition) {
  return {
    pattern: def.pattern,
    url_template: def.urlTemplate,
    example_input: def.exampleInput,
    reverse_template: def.reverseTemplate,
    alternative_url_templates: JSON.stringify(def.alternativeUrlTemplates),
  };
}

async function assertPatternUnused(q: Queryable, realm: RealmRow, pattern: string, exceptId?: number): Promise<void> {
  const clash = (await listLinkifiers(q, realm.id)).find((l) => l.pattern === pattern && l.id !== exceptId);
  if (clash)
    throw Errors.badRequest("A linkifier with this pattern already exists.", {
      errors: { pattern: ["A linkifier with this pattern already exists."] },
    });
}

export async function addLinkifier(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  def: LinkifierDefinition,
): Promise<{ id: number; notifications: Notification[] }> {
  assertAdmin(user);
  validateLinkifier(def);
  return withTransaction(db, async (trx) => {
    await assertPatternUnused(trx, realm, def.pattern);
    const id = await insertLinkifier(trx, realm.id, toFields(def));
    return { id, notifications: [await linkifiersEvent(trx, realm)] };
  });
}

export async function editLinkifier(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  id: number,
  def: LinkifierDefinition,
): Promise<Notification[]> {
  assertAdmin(user);
  return withTransaction(db, async (trx) => {
    if (!(await findLinkifier(trx, realm.id, id))) throw Errors.badRequest("Linkifier not found.");
    validateLinkifier(def);
    await assertPatternUnused(trx, realm, def.pattern, id);
    await updateLinkifier(trx, id, toFields(def));
    return [await linkifiersEvent(trx, realm)];
  });
}

export async function removeLinkifier(db: Db, realm: RealmRow, user: UserRow, id: number): Promise<Notification[]> {
  assertAdmin(user);
  return withTransaction(db, async (trx) => {
    if (!(await findLinkifier(trx, realm.id, id))) throw Errors.badRequest("Linkifier not found.");
    await deleteLinkifier(trx, id);
    return [await linkifiersEvent(trx, realm)];
  });
}

export async function reorderLinkifiers(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  orderedIds: number[],
): Promise<Notification[]> {
  assertAdmin(user);
  return withTransaction(db, async (trx) => {
    const existing = await listLinkifiers(trx, realm.id);
    if (new Set(orderedIds).size !== orderedIds.length)
      throw Errors.badRequest("The ordered list must not contain duplicated linkifiers");
    const known = new Set(existing.map((l) => l.id));
    if (orderedIds.length !== known.size || !orderedIds.every((id) => known.has(id))) {
      throw Errors.badRequest("The ordered list must enumerate all existing linkifiers exactly once");
    }
    for (const [index, id] of orderedIds.entries()) await updateLinkifier(trx, id, { sort_order: index });
    return [await linkifiersEvent(trx, realm)];
  });
}
