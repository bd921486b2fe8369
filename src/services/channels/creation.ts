// Creating channels on subscribe: name rules, who may create which kind of channel, and the
// creation-time options (privacy, retention, topics policy, permission groups, folder).
import type { Db, Queryable } from "../../db/knex";
import { isUserInGroup } from "../../db/groups";
import { isUniqueViolation } from "../../db/errors";
import { bool, ROLE, type RealmRow, type StreamRow, type UserRow } from "../../db/rows";
import { upsertSubscriptions } from "../../db/subscriptions";
import { withTransaction } from "../../db/transaction";
import { Errors, ApiError } from "../../errors";
import type { GroupSettingValue } from "../groups/settingValues";
import { getFolder } from "./folders";
import { insertChannel, MAX_STREAM_DESCRIPTION_LENGTH, MAX_STREAM_NAME_LENGTH } from "./channels";
import {
  isSystemGroup,
  resolveGroupSettings,
  storeGroupSettings,
  type ChannelGroupSetting,
  type ResolvedGroupSetting,
} from "./groupSettings";
import { unprintablePosition } from "./nameChecks";
import { findUserInRealm, isAdmin } from "../users/users";
import { normalizeName } from "../../names";

export const TOPICS_POLICIES = ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"] as const;

export interface CreationOptions {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  history_public_to_subscribers?: boolean;
  /** null = realm default, -1 = unlimited; undefined = not given. */
  message_retention_days?: number | null;
  default_push_notifications?: boolean;
  topics_policy: (typeof TOPICS_POLICIES)[number];
  folder_id?: number;
  groupSettings: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

/** Validated options, with group values resolved (nothing written yet). */
export interface PreparedCreation {
  options: CreationOptions;
  historyPublic: boolean;
  groups: Partial<Record<ChannelGroupSetting, ResolvedGroupSetting>>;
}

export function checkChannelName(name: string): void {
  if (name.trim() === "") throw Errors.badRequest("Channel name can't be empty.");
  if ([...name].length > MAX_STREAM_NAME_LENGTH) {
    throw Errors.badRequest(`Channel name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  }
  const bad = unprintablePosition(name);
  if (bad !== undefined) throw Errors.badRequest(`Invalid character in channel name, at position ${bad}.`);
}

export function checkChannelDescription(description: string): void {
  if ([...description].length > MAX_STREAM_DESCRIPTION_LENGTH) {
    throw Errors.badRequest(`Channel description too long (limit: ${MAX_STREAM_DESCRIPTION_LENGTH} characters).`);
  }
}

/** Input checks that do not depend on whether anything gets created. */
export async function prepareCreation(
  q: Queryable,
  realm: RealmRow,
  options: CreationOptions,
): Promise<PreparedCreation> {
  if (options.folder_id !== undefined) await getFolder(q, realm.id, options.folder_id);
  const groups = await resolveGroupSettings(q, realm.id, options.groupSettings);
  // Public channels always show history to subscribers; private ones hide it unless asked.
  const historyPublic = options.invite_only ? (options.history_public_to_subscribers ?? false) : true;
  if (options.invite_only && !historyPublic && groups.can_create_topic_group !== undefined) {
    if (!(await isSystemGroup(q, realm.id, groups.can_create_topic_group, "role:everyone"))) {
      throw Errors.badRequest(
        "'can_create_topic_group' must be 'role:everyone' for private channels with protected history.",
      );
    }
  }
  return { options, historyPublic, groups };
}

/** Permission checks for creating channels with these options; only run when something is created. */
export async function assertCanCreate(
  q: Queryable,
  realm: RealmRow,
  user: UserRow,
  options: CreationOptions,
  webPublicEnabled: boolean,
): Promise<void> {
  const insufficient = () => Errors.badRequest("Insufficient permission");
  if (options.is_web_public) {
    if (!webPublicEnabled || !bool(realm.enable_spectator_access))
      throw Errors.badRequest("Web-public channels are not enabled.");
    if (options.invite_only) throw Errors.badRequest("A web-public channel cannot be private.");
    if (!(await isUserInGroup(q, user.id, realm.can_create_web_public_channel_group as number))) throw insufficient();
  } else {
    const setting = options.invite_only
      ? realm.can_create_private_channel_group
      : realm.can_create_public_channel_group;
    if (!(await isUserInGroup(q, user.id, setting as number))) throw insufficient();
  }
  if (options.is_default_stream) {
    if (options.invite_only) throw Errors.badRequest("A default channel cannot be private.");
    if (!isAdmin(user)) throw insufficient();
  }
  if (options.default_push_notifications !== undefined && !isAdmin(user)) throw Errors.mustBeAdmin();
  if (
    options.message_retention_days !== undefined &&
    options.message_retention_days !== null &&
    user.role !== ROLE.owner
  )
    throw Errors.mustBeOwner();
}

export async function createChannel(
  q: Queryable,
  realm: RealmRow,
  creator: UserRow,
  prepared: PreparedCreation,
  entry: { name: string; description: string },
): Promise<StreamRow> {
  const { options } = prepared;
  const groupSettings = await storeGroupSettings(q, realm.id, prepared.groups, creator.id);
  // The reference makes the creator the channel's administrator unless told otherwise.
  if (groupSettings.can_administer_channel_group === undefined) {
    const [id] = Object.values(
      await storeGroupSettings(
        q,
        realm.id,
        { can_administer_channel_group: { members: [creator.id], subgroups: [] } },
        creator.id,
      ),
    );
    groupSettings.can_administer_channel_group = id;
  }
  try {
    return await insertChannel(q, realm, creator, {
      name: entry.name,
      description: entry.description,
      invite_only: options.invite_only,
      is_web_public: options.is_web_public,
      history_public_to_subscribers: prepared.historyPublic,
      is_default_stream: options.is_default_stream,
      message_retention_days: options.message_retention_days ?? null,
      default_push_notifications: options.default_push_notifications ?? false,
      topics_policy: options.topics_policy,
      folder_id: options.folder_id ?? null,
      groupSettings,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError("BAD_REQUEST", `Channel '${entry.name}' already exists`);
    throw err;
  }
}

/**
 * The operator CLI's create-channel: the API's name and description rules, no permission checks
 * (the operator is not a user), default permission groups, and the given users subscribed.
 */
export async function createChannelAsOperator(
  db: Db,
  realm: RealmRow,
  input: { name: string; description: string; inviteOnly: boolean; subscriberEmails: string[] },
): Promise<StreamRow> {
  const name = normalizeName(input.name).trim();
  checkChannelName(name);
  checkChannelDescription(input.description);
  return withTransaction(db, async (trx) => {
    const subscriberIds: number[] = [];
    for (const email of input.subscriberEmails) {
      const user = await findUserInRealm(trx, realm.id, email.trim());
      if (!user) throw Errors.badRequest(`No user '${email}'`);
      subscriberIds.push(user.id);
    }
    let stream: StreamRow;
    try {
      stream = await insertChannel(trx, realm, null, {
        name,
        description: input.description,
        invite_only: input.inviteOnly,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError("BAD_REQUEST", `Channel '${name}' already exists`);
      throw err;
    }
    await upsertSubscriptions(
      trx,
      subscriberIds.map((user_id) => ({ user_id, stream_id: stream.id })),
    );
    return stream;
  });
}
