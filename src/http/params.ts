// Declare an endpoint's parameters once: type, required/default, validation.
// Produces REQUEST_VARIABLE_MISSING, BAD_REQUEST naming the parameter, and the
// ignored_parameters_unsupported list for everything the endpoint did not declare.
import type { Context } from "koa";
import Ajv, { type Schema, type ValidateFunction } from "ajv";
import { Errors } from "../errors";
import { JsonTooDeepError, parseJson } from "../json";
import { normalizeName } from "../names";
import { hasLoneSurrogate, hasNullByte } from "../text";

const ajv = new Ajv({ allErrors: false, strict: false });

// One compiled validator per distinct schema text. Handlers declare their parameters per request,
// so a schema is a new object each time: compiled afresh (about a millisecond) and kept in Ajv's
// own cache (keyed by object) for ever, one more per request. Compiled on first use, not when the
// modules load: most are rarely called.
const jsonValidators = new Map<string, ValidateFunction>();

function jsonValidator(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = jsonValidators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    jsonValidators.set(key, validate);
  }
  return validate;
}

/** How many JSON-parameter schemas have been compiled (each distinct one once). */
export const compiledJsonSchemas = (): number => jsonValidators.size;

type Parser<T> = (raw: unknown, name: string) => T;

export class Param<T> {
  constructor(
    readonly parse: Parser<T>,
    readonly isRequired = false,
    readonly defaultValue?: T,
    readonly aliases: string[] = [],
  ) {}

  required(): Param<Exclude<T, undefined>> {
    return new Param(this.parse as Parser<Exclude<T, undefined>>, true, undefined, this.aliases);
  }

  default(value: Exclude<T, undefined>): Param<Exclude<T, undefined>> {
    return new Param(this.parse as Parser<Exclude<T, undefined>>, false, value, this.aliases);
  }

  /** Also accept the value under another (legacy) name, e.g. `subject` for `topic`. */
  alias(name: string): Param<T> {
    return new Param(this.parse, this.isRequired, this.defaultValue, [...this.aliases, name]);
  }

  /** Extra validation after parsing; return an error message to reject. */
  check(fn: (value: Exclude<T, undefined>, name: string) => string | undefined): Param<T> {
    const parse = this.parse;
    return new Param(
      (raw, name) => {
        const value = parse(raw, name);
        if (value !== undefined) {
          const problem = fn(value as Exclude<T, undefined>, name);
          if (problem) throw Errors.invalidParam(name, problem);
        }
        return value;
      },
      this.isRequired,
      this.defaultValue,
      this.aliases,
    );
  }
}

function asText(raw: unknown, name: string): string {
  if (typeof raw === "string") return raw;
  if (Array.isArray(raw)) throw Errors.invalidParam(name, `${name} was given more than once`);
  if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
  throw Errors.invalidParam(name, `${name} is not a string`);
}

function parseJsonText(raw: unknown, name: string): unknown {
  const text = asText(raw, name);
  try {
    return parseJson(text);
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw err;
    throw Errors.invalidJsonParam(name);
  }
}

const PLAIN_INTEGER = /^-?\d+$/;
/** What a JSON-encoded value starts with: a quote, a bracket, a number, true/false/null. */
const LOOKS_LIKE_JSON = /^\s*["[{\-\dtfn]/;

function toInt(value: unknown, name: string): number {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim()) && Number.isSafeInteger(Number(value)))
    return Number(value);
  throw Errors.invalidParam(name, `${name} is not an integer`);
}

export const P = {
  string(opts: { maxLength?: number; minLength?: number } = {}): Param<string | undefined> {
    return new Param((raw, name) => {
      const value = asText(raw, name);
      // Refused rather than stored (src/text.ts says why); rendered webhook messages follow the same rule.
      if (hasNullByte(value)) throw Errors.invalidParam(name, `${name} must not contain null bytes`);
      if (hasLoneSurrogate(value)) {
        throw Errors.invalidParam(name, `${name} contains an unpaired surrogate (invalid Unicode)`);
      }
      if (opts.minLength !== undefined && value.length < opts.minLength) {
        throw Errors.invalidParam(
          name,
          opts.minLength === 1
            ? `${name} cannot be blank`
            : `${name} is too short (minimum ${opts.minLength} characters)`,
        );
      }
      if (opts.maxLength !== undefined && [...value].length > opts.maxLength) {
        throw Errors.invalidParam(name, `${name} is too long (limit: ${opts.maxLength} characters)`);
      }
      return value;
    });
  },

  /** A user-chosen name: normalised to NFC (src/names.ts) before its length is checked. */
  name(opts: { maxLength?: number; minLength?: number } = {}): Param<string | undefined> {
    const text = P.string(opts);
    return new Param((raw, name) => text.parse(typeof raw === "string" ? normalizeName(raw) : raw, name));
  },

  /** A plain integer, or a JSON-encoded one (both are accepted by the reference). */
  int(opts: { min?: number; max?: number } = {}): Param<number | undefined> {
    return new Param((raw, name) => {
      const value = toInt(typeof raw === "string" ? raw : asText(raw, name), name);
      if (opts.min !== undefined && value < opts.min) throw Errors.invalidParam(name, `${name} is too small`);
      if (opts.max !== undefined && value > opts.max) throw Errors.invalidParam(name, `${name} is too large`);
      return value;
    });
  },

  bool(): Param<boolean | undefined> {
    return new Param((raw, name) => {
      const text = asText(raw, name).trim().toLowerCase();
      if (text === "true") return true;
      if (text === "false") return false;
      throw Errors.invalidParam(name, `${name} is not a boolean`);
    });
  },

  enum<const V extends string>(values: readonly V[]): Param<V | undefined> {
    return new Param((raw, name) => {
      const text = asText(raw, name);
      if (!(values as readonly string[]).includes(text)) {
        throw Errors.invalidParam(name, `Invalid ${name}`);
      }
      return text as V;
    });
  },

  /** A JSON-encoded value, validated against a JSON Schema; `describe` names the expectation in errors. */
  json<T>(schema: Schema, describe: string): Param<T | undefined> {
    let validate: ValidateFunction | undefined;
    return new Param((raw, name) => {
      const value = parseJsonText(raw, name);
      validate ??= jsonValidator(schema);
      if (!validate(value)) throw Errors.invalidParam(name, `${name} is not ${describe}`);
      return value as T;
    });
  },

  /** Integer given either plainly or JSON-encoded (`stream_id=7` or `stream_id="7"`). */
  jsonInt(): Param<number | undefined> {
    return new Param((raw, name) => {
      const text = asText(raw, name);
      // A plain integer (the usual case) or plain text needs no JSON parse, which would throw on plain text.
      if (PLAIN_INTEGER.test(text) || !LOOKS_LIKE_JSON.test(text)) return toInt(text, name);
      let value: unknown = text;
      try {
        value = parseJson(text);
      } catch (err) {
        if (err instanceof JsonTooDeepError) throw err;
        /* not JSON after all */
      }
      return toInt(value, name);
    });
  },

  custom<T>(parse: Parser<T>): Param<T | undefined> {
    return new Param(parse);
  },
};

type Values<S extends Record<string, Param<unknown>>> = { [K in keyof S]: S[K] extends Param<infer T> ? T : never };

/** Parse ctx.state.rawParams against the spec; unknown keys go to ignored_parameters_unsupported. */
export function parseParams<S extends Record<string, Param<unknown>>>(
  ctx: Context,
  spec: S,
  extraKnown: string[] = [],
): Values<S> {
  return parseParamsFrom(
    ctx.state as { rawParams?: Record<string, unknown>; ignoredParams?: string[] },
    spec,
    extraKnown,
  );
}

export function parseParamsFrom<S extends Record<string, Param<unknown>>>(
  state: { rawParams?: Record<string, unknown>; ignoredParams?: string[] },
  spec: S,
  extraKnown: string[] = [],
): Values<S> {
  const raw = state.rawParams ?? {};
  const known = new Set<string>(extraKnown);
  const out: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(spec)) {
    known.add(name);
    param.aliases.forEach((a) => known.add(a));
    const given = [name, ...param.aliases].filter((n) => raw[n] !== undefined);
    if (given.length > 1) throw Errors.confusingVar(given[0], given[1]);
    if (given.length === 0) {
      if (param.isRequired) throw Errors.missingParam(name);
      out[name] = param.defaultValue;
      continue;
    }
    out[name] = param.parse(raw[given[0]], name);
  }
  state.ignoredParams = Object.keys(raw).filter((k) => !known.has(k));
  return out as Values<S>;
}
