// Intercom notifications wrap one item (a conversation, contact, user, company, event or tag
// link) in `data.item`. Conversations name the acting admin only in their newest part, and
// bodies are HTML; payloads from API 1.x (`conversation_message`, `user`) and 2.x (`source`,
// `contacts`) differ. This reads all of them into `ic`.
import { htmlToMarkdown, scalarText as str, type TransformContext } from "../../src/webhooks/plugin";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const html = (v: unknown): string | undefined => {
  const s = str(v);
  return s ? htmlToMarkdown(s) || undefined : undefined;
};

/** A person's display name: name, else email, else Intercom's pseudonym for anonymous leads. */
export function personName(p: Obj | undefined): string | undefined {
  if (!p || typeof p !== "object") return undefined;
  return str(p.name) ?? str(p.pseudonym) ?? str(p.email);
}

function place(p: Obj | undefined): string | undefined {
  const loc: Obj = p?.location_data ?? p?.location ?? {};
  return [str(loc.city_name ?? loc.city), str(loc.country_name ?? loc.country)].filter(Boolean).join(", ") || undefined;
}

export default function transform(payload: Obj, _context: TransformContext) {
  const item: Obj = payload.data?.item ?? {};
  const appId = str(payload.app_id) ?? str(item.app_id);
  const appUrl = appId ? `https://app.intercom.com/a/apps/${appId}` : undefined;
  const parts: Obj[] = item.conversation_parts?.conversation_parts ?? [];
  const part: Obj | undefined = parts[parts.length - 1];
  // The person a conversation is with: 1.x `user`, 2.x `source.author` when a contact wrote first.
  const customer: Obj | undefined =
    item.user ??
    (item.source?.author?.type !== "admin" ? item.source?.author : undefined) ??
    item.contacts?.contacts?.[0];
  const person: Obj | undefined = item.type === "contact" || item.type === "user" ? item : (item.user ?? item.contact);
  const listed: unknown = item.tags_added?.tags ?? (item.tag ? [item.tag] : []);
  const tags: Obj[] = Array.isArray(listed) ? listed : []; // any JSON type may arrive here
  const conversationId = item.type === "conversation" ? str(item.id) : undefined;
  return {
    ic: {
      conversationId,
      conversationUrl:
        str(item.links?.conversation_web) ??
        (appUrl && conversationId ? `${appUrl}/conversations/${conversationId}` : undefined),
      customer: personName(customer) ?? "a customer",
      admin:
        personName(part?.author?.type === "admin" ? part.author : undefined) ??
        personName(item.source?.author?.type === "admin" ? item.source.author : undefined) ??
        personName(item.conversation_message?.author?.type === "admin" ? item.conversation_message.author : undefined),
      assignee:
        personName(part?.assigned_to) ?? (item.assignee?.type === "admin" ? personName(item.assignee) : undefined),
      subject: html(item.conversation_message?.subject ?? item.source?.subject),
      // The newest part's text (a reply or a note), else the opening message.
      body:
        html(part?.body) ??
        (parts.length === 0 ? html(item.conversation_message?.body ?? item.source?.body) : undefined),
      tags:
        tags
          .map((t) => str(t?.name))
          .filter(Boolean)
          .join(", ") || undefined,
      person: personName(person) ?? str(person?.user_id) ?? str(person?.id),
      email: str(person?.email),
      place: place(person),
      personUrl: appUrl && str(person?.id) ? `${appUrl}/users/${person!.id}` : undefined,
      company: str(item.name) ?? str(item.company_id),
      companyUrl: appUrl && item.type === "company" && str(item.id) ? `${appUrl}/companies/${item.id}` : undefined,
    },
  };
}
