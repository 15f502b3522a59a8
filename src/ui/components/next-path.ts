/**
 * Where a screen that needs signing in sends the person back to afterwards: `?next=/join?code=…`
 * on /login and /register. Only a path of this app is taken (it starts with one "/"), never
 * another site's address ("//evil.example", "https://…", "/\evil.example"), so a link cannot use
 * the sign-in page to send someone elsewhere.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // Control characters (a tab or newline inside "/\t/evil") are dropped by URL parsers: refused too.
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  return value;
}

/** The `next` of a page's query string (`location.search`), when it is safe. */
export const nextPathOf = (search: string): string | null => safeNextPath(new URLSearchParams(search).get("next"));

/** `path` with `?next=` added, when there is somewhere to come back to. */
export const withNext = (path: string, next: string | null): string => (next ? `${path}?${new URLSearchParams({ next }).toString()}` : path);
