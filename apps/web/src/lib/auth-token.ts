/**
 * The session token lives in the `auth_token` cookie that only the server writes and reads (HttpOnly),
 * so no script on the page, an injected one included, can read it; same-origin requests carry it.
 * The page only remembers that it knows the session has ended (signed out, or a 401 answer, on which
 * the server also clears the cookie), so it does not ask questions that can only be refused. On a
 * fresh page load nothing is known: the first call (the current user) tells.
 */
let sessionEnded = false;

export const mayHaveSession = (): boolean => !sessionEnded;

export const markSignedIn = (): void => {
  sessionEnded = false;
};

export const markSessionEnded = (): void => {
  sessionEnded = true;
};
