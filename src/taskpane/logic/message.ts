/** The text to show for anything thrown: an Error's message, else the value as text. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
