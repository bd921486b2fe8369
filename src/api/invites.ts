// GET/POST /invites, POST /invites/multiuse, DELETE /invites/{id}, DELETE /invites/multiuse/{id}.
import { ok } from "../http/envelope";
import { P, parseParams } from "../http/params";
import { Errors } from "../errors";
import { createMailer } from "../services/invitations/mailer";
import {
  createEmailInvites,
  createMultiuseInvite,
  DEFAULT_INVITE_EXPIRY_MINUTES,
  INVITE_ROLES,
  invitationLink,
  listInvitations,
  partialInviteFailure,
  revokeInvite,
  type CreatedEmailInvite,
  type InviteOptions,
} from "../services/invitations/invitations";
import type { RealmRow, UserRow } from "../db/rows";
import { actor, pathInt, type RouteKit } from "./routeKit";
import { JsonTooDeepError, parseJson } from "../json";

const MAX_EXPIRY_MINUTES = 1_000_000_000;
const intList = { type: "array", items: { type: "integer" } };

/** JSON integer minutes, or null for an invitation that never expires. */
const expiresIn = P.custom<number | null>((raw, name) => {
  let value: unknown;
  try {
    value = parseJson(String(raw));
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw err;
    throw Errors.invalidJsonParam(name);
  }
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_EXPIRY_MINUTES) {
    throw Errors.invalidParam(name, `${name} must be a positive integer or null`);
  }
  return value;
}).default(DEFAULT_INVITE_EXPIRY_MINUTES);

const inviteAs = P.jsonInt()
  .check((v) => ((INVITE_ROLES as readonly number[]).includes(v) ? undefined : "Invalid invite_as"))
  .default(400);

export function invitesRoutes({ router, deps, auth }: RouteKit): void {
  const mailer = createMailer(deps.config.smtpUrl, deps.config.rootDomain, deps.logger);

  function mailInvitations(realm: RealmRow, inviter: UserRow, invites: CreatedEmailInvite[]): void {
    for (const invite of invites) {
      const expiry =
        invite.expiryDate === null
          ? "It does not expire."
          : `It expires on ${new Date(invite.expiryDate * 1000).toUTCString()}.`;
      // Not awaited: a slow mail server must not hold up the API; failures are logged by the mailer.
      void mailer.send({
        to: invite.email,
        subject: `${inviter.full_name} invited you to join ${realm.name}`,
        text: `${inviter.full_name} (${inviter.delivery_email}) invited you to join ${realm.name}.\n\nJoin here: ${invitationLink(deps.config.externalUrl, invite.linkKey, realm)}\n\n${expiry}\n`,
      });
    }
  }

  router.get("/invites", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { invites: await listInvitations(deps.db, realm, user, deps.config.externalUrl) });
  });

  router.post("/invites", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      invitee_emails: P.string().required(),
      invite_expires_in_minutes: expiresIn,
      invite_as: inviteAs,
      stream_ids: P.json<number[]>(intList, "a list of integers").required(),
      group_ids: P.json<number[]>(intList, "a list of integers").default([]),
      include_realm_default_subscriptions: P.bool().default(false),
      notify_referrer_on_join: P.bool().default(true),
      welcome_message_custom_text: P.string({ maxLength: 8000 }),
    });
    const options: InviteOptions = {
      inviteAs: p.invite_as,
      expiresInMinutes: p.invite_expires_in_minutes,
      streamIds: p.stream_ids,
      groupIds: p.group_ids,
      includeRealmDefaultSubscriptions: p.include_realm_default_subscriptions,
      notifyReferrerOnJoin: p.notify_referrer_on_join,
      welcomeMessageCustomText: p.welcome_message_custom_text ?? null,
    };
    const result = await createEmailInvites(deps.db, realm, user, p.invitee_emails, options, deps.config.invitations);
    await deps.bus.publish(result.notifications);
    mailInvitations(realm, user, result.created);
    // The others were invited (and committed); the skipped addresses are reported as an error.
    if (result.skipped.length > 0) throw partialInviteFailure(result.skipped);
    ok(ctx);
  });

  router.post("/invites/multiuse", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      invite_expires_in_minutes: expiresIn,
      invite_as: inviteAs,
      stream_ids: P.json<number[]>(intList, "a list of integers").default([]),
      group_ids: P.json<number[]>(intList, "a list of integers").default([]),
      include_realm_default_subscriptions: P.bool().default(false),
      welcome_message_custom_text: P.string({ maxLength: 8000 }),
    });
    const created = await createMultiuseInvite(deps.db, realm, user, {
      inviteAs: p.invite_as,
      expiresInMinutes: p.invite_expires_in_minutes,
      streamIds: p.stream_ids,
      groupIds: p.group_ids,
      includeRealmDefaultSubscriptions: p.include_realm_default_subscriptions,
      notifyReferrerOnJoin: true,
      welcomeMessageCustomText: p.welcome_message_custom_text ?? null,
    });
    await deps.bus.publish(created.notifications);
    ok(ctx, { invite_link: invitationLink(deps.config.externalUrl, created.linkKey, realm) });
  });

  router.delete("/invites/multiuse/:invite_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    await deps.bus.publish(await revokeInvite(deps.db, realm, user, pathInt(ctx, "invite_id"), true));
    ok(ctx);
  });

  router.delete("/invites/:invite_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    await deps.bus.publish(await revokeInvite(deps.db, realm, user, pathInt(ctx, "invite_id"), false));
    ok(ctx);
  });
}
