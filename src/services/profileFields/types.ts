// The custom profile field types: their ids, the field_data each accepts, and how a user's
// value for each is checked. Values are stored as strings (a person list as JSON text).
import { Errors } from "../../errors";

export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

export const FIELD_TYPE_INFO: Record<keyof typeof FIELD_TYPE, { id: number; name: string }> = {
  SHORT_TEXT: { id: 1, name: "Text (short)" },
  LONG_TEXT: { id: 2, name: "Text (long)" },
  SELECT: { id: 3, name: "List of options" },
  DATE: { id: 4, name: "Date" },
  URL: { id: 5, name: "Link" },
  USER: { id: 6, name: "Users" },
  EXTERNAL_ACCOUNT: { id: 7, name: "External account" },
  PRONOUNS: { id: 8, name: "Pronouns" },
};

/** Types whose values are Markdown and get a rendered_value. */
export const RENDERED_TYPES: number[] = [FIELD_TYPE.SHORT_TEXT, FIELD_TYPE.LONG_TEXT];
export const SUMMARY_TYPES_EXCLUDED: number[] = [FIELD_TYPE.LONG_TEXT, FIELD_TYPE.USER];

export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; hint: string; url_pattern: string }> = {
  github: { name: "GitHub", hint: "Enter your GitHub username", url_pattern: "https://github.com/%(username)s" },
  twitter: { name: "Twitter", hint: "Enter your Twitter username", url_pattern: "https://twitter.com/%(username)s" },
};

export function isValidUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

type FieldData = Record<string, unknown>;

function validateSelectData(data: FieldData): void {
  const texts = new Set<string>();
  for (const [key, option] of Object.entries(data)) {
    if (!key.trim()) throw Errors.badRequest("'value' cannot be blank.");
    const o = option as Record<string, unknown> | null;
    if (!o || typeof o !== "object" || Array.isArray(o)) throw Errors.badRequest(`field_data["${key}"] is not a dict`);
    for (const k of Object.keys(o))
      if (k !== "text" && k !== "order") throw Errors.badRequest(`Unexpected arguments: ${k}`);
    for (const k of ["text", "order"]) {
      if (typeof o[k] !== "string") throw Errors.badRequest(`field_data["${key}"]["${k}"] is not a string`);
      if (!(o[k] as string).trim()) throw Errors.badRequest(`field_data["${key}"]["${k}"] cannot be blank.`);
    }
    texts.add(o.text as string);
  }
  if (texts.size === 0) throw Errors.badRequest("Field must have at least one choice.");
  if (texts.size !== Object.keys(data).length) throw Errors.badRequest("Field must not have duplicate choices.");
}

function validateExternalAccountData(data: FieldData): void {
  const subtype = data.subtype;
  if (typeof subtype !== "string" || !subtype) throw Errors.badRequest('field_data["subtype"] is not a string');
  for (const k of Object.keys(data))
    if (k !== "subtype" && k !== "url_pattern") throw Errors.badRequest(`Unexpected arguments: ${k}`);
  if (data.url_pattern !== undefined) {
    const pattern = data.url_pattern;
    if (typeof pattern !== "string" || pattern.split("%(username)s").length !== 2)
      throw Errors.badRequest("URL pattern must contain '%(username)s'.");
    if (!isValidUrl(pattern.replace("%(username)s", "username")))
      throw Errors.badRequest('field_data["url_pattern"] is not a URL');
  }
  if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) {
    if (subtype !== "custom") throw Errors.badRequest("Invalid external account type");
    if (data.url_pattern === undefined) throw Errors.badRequest("Custom external account must define URL pattern");
  }
}

/** field_data as stored: JSON text for list and external-account fields, "" for the others. */
export function normalizeFieldData(fieldType: number, data: FieldData): string {
  if (fieldType === FIELD_TYPE.SELECT) {
    validateSelectData(data);
    return JSON.stringify(data);
  }
  if (fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    validateExternalAccountData(data);
    return JSON.stringify(data);
  }
  return "";
}

function textValue(name: string, value: unknown, limit: number): string {
  if (typeof value !== "string") throw Errors.badRequest(`${name} is not a string`);
  if ([...value].length > limit) throw Errors.badRequest(`${name} is too long (limit: ${limit} characters)`);
  return value;
}

function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * Checks a user's value for a field; returns the string to store. `isRealmUser` answers
 * whether an id names an active user of the realm (for person fields).
 */
export async function normalizeValue(
  field: { name: string; field_type: number; field_data: string },
  value: unknown,
  isRealmUser: (ids: number[]) => Promise<number | undefined>,
): Promise<string> {
  const name = field.name;
  switch (field.field_type) {
    case FIELD_TYPE.LONG_TEXT:
      return textValue(name, value, 500);
    case FIELD_TYPE.SHORT_TEXT:
    case FIELD_TYPE.EXTERNAL_ACCOUNT:
    case FIELD_TYPE.PRONOUNS:
      return textValue(name, value, 50);
    case FIELD_TYPE.DATE:
      if (typeof value !== "string" || !isRealDate(value)) throw Errors.badRequest(`${name} is not a date`);
      return value;
    case FIELD_TYPE.URL:
      if (typeof value !== "string" || !isValidUrl(value)) throw Errors.badRequest(`${name} is not a URL`);
      return value;
    case FIELD_TYPE.SELECT: {
      const options = field.field_data ? (JSON.parse(field.field_data) as FieldData) : {};
      if (typeof value !== "string" || !Object.prototype.hasOwnProperty.call(options, value)) {
        throw Errors.badRequest(`'${String(value)}' is not a valid choice for '${name}'.`);
      }
      return value;
    }
    case FIELD_TYPE.USER: {
      if (!Array.isArray(value)) throw Errors.badRequest(`${name} is not a list`);
      const ids = value as unknown[];
      const badIndex = ids.findIndex((id) => typeof id !== "number" || !Number.isSafeInteger(id));
      if (badIndex !== -1) throw Errors.badRequest(`${name}[${badIndex}] is not an integer`);
      const unique = [...new Set(ids as number[])];
      const invalid = await isRealmUser(unique);
      if (invalid !== undefined) throw Errors.badRequest(`Invalid user ID: ${invalid}`);
      return JSON.stringify(unique);
    }
    default:
      throw Errors.badRequest("Invalid field type.");
  }
}
