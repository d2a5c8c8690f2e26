// The user's connection settings (base URL and API key), kept in a key-value store such as
// OfficeRuntime.storage (Excel) or a file (CLI). This store is the only place the key is written.
import { InvalidArgumentError } from "./errors";
import type { BillingModel } from "./pricing";
import type { KeyValueStore } from "./storage";
import type { RefreshPolicy } from "./types";

export interface FdqSettings {
  /** Includes the version prefix, e.g. https://api.newconstructs.com/v1. */
  baseUrl: string;
  apiKey: string;
  /** How the account is billed (default per-datapoint). */
  billing?: BillingModel;
  /** strict (default) or the quota saver. */
  refreshPolicy?: RefreshPolicy;
}

const isBilling = (v: unknown): v is BillingModel => v === "per-datapoint" || v === "per-request";

function refreshPolicyOf(v: unknown): RefreshPolicy | undefined {
  const o = v as { kind?: unknown; keepDays?: unknown } | null;
  if (typeof o !== "object" || o === null) return undefined;
  if (o.kind === "strict") return { kind: "strict" };
  if (o.kind !== "saver") return undefined;
  const days = o.keepDays;
  return typeof days === "number" && Number.isInteger(days) && days >= 1 && days <= 31
    ? { kind: "saver", keepDays: days }
    : { kind: "saver" };
}

export const SETTINGS_KEY = "fdq.settings";

/** The vendor's production service (production-service.md, fact 1): only the starting value of an editable setting. */
export const DEFAULT_BASE_URL = "https://api.newconstructs.com/v1";

/** Hosts a base URL may name over plain http: this machine (the sandbox, a local gateway). */
export const LOCAL_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Checks a base URL and answers it without a trailing slash. https is required except for localhost and
 * 127.0.0.1 (the sandbox), so the key never crosses a network in clear text.
 */
export function checkBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(typeof url === "string" ? url.trim() : "");
  } catch {
    throw new InvalidArgumentError({ argument: "baseUrl", message: `baseUrl "${url}" is not a URL.` });
  }
  const local = LOCAL_HOSTS.has(parsed.hostname);
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && local)) {
    throw new InvalidArgumentError({
      argument: "baseUrl",
      message: "baseUrl must start with https:// (http:// is allowed only for localhost and 127.0.0.1).",
    });
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new InvalidArgumentError({
      argument: "baseUrl",
      message: "baseUrl must not carry a user name, password, query or fragment.",
    });
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
}

/** Saved settings, or the defaults (production URL, no key) when none are saved or they are unreadable. */
export async function loadSettings(storage: KeyValueStore): Promise<FdqSettings> {
  const defaults: FdqSettings = { baseUrl: DEFAULT_BASE_URL, apiKey: "" };
  let saved: Partial<Record<keyof FdqSettings, unknown>>;
  try {
    const text = await storage.get(SETTINGS_KEY);
    if (!text) return defaults;
    saved = JSON.parse(text) as typeof saved;
  } catch {
    return defaults;
  }
  const settings: FdqSettings = {
    baseUrl: typeof saved?.baseUrl === "string" ? saved.baseUrl : defaults.baseUrl,
    apiKey: typeof saved?.apiKey === "string" ? saved.apiKey : defaults.apiKey,
  };
  if (isBilling(saved?.billing)) settings.billing = saved.billing;
  const policy = refreshPolicyOf(saved?.refreshPolicy);
  if (policy) settings.refreshPolicy = policy;
  return settings;
}

/**
 * Validates (InvalidArgumentError for a bad base URL), normalises and saves; answers what was saved. Billing
 * and refresh policy not given keep their saved values (the connection form does not show them).
 */
export async function saveSettings(storage: KeyValueStore, settings: FdqSettings): Promise<FdqSettings> {
  const saved = await loadSettings(storage);
  const clean: FdqSettings = { baseUrl: checkBaseUrl(settings.baseUrl), apiKey: settings.apiKey.trim() };
  const billing = settings.billing ?? saved.billing;
  const policy = settings.refreshPolicy ?? saved.refreshPolicy;
  if (billing) clean.billing = billing;
  if (policy) clean.refreshPolicy = policy;
  await storage.set(SETTINGS_KEY, JSON.stringify(clean));
  return clean;
}
