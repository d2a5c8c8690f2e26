// The API key must never reach a cell, a log or an event, even when a service or gateway echoes it back.

export const KEY_PLACEHOLDER = "[API key]";

/** `text` with every occurrence of the key, as sent or URL-encoded, replaced by "[API key]". */
export function redactKey(text: string, apiKey: string): string {
  if (!apiKey) return text;
  let out = text.split(apiKey).join(KEY_PLACEHOLDER);
  const encoded = encodeURIComponent(apiKey);
  if (encoded !== apiKey) out = out.split(encoded).join(KEY_PLACEHOLDER);
  return out;
}
