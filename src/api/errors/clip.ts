// Errors keep a message, never a body: every text of the service an error holds is cut to this length.

/** The most characters of the service's text an error keeps. */
export const MAX_SERVICE_TEXT = 300;

export const clipText = (text: string): string =>
  text.length <= MAX_SERVICE_TEXT
    ? text
    : `${text.slice(0, MAX_SERVICE_TEXT)}… (${text.length} characters in all)`;
