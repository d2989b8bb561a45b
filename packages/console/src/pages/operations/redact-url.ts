const SECRET_PARAMETER = /token|auth|secret|password|key/i;

/**
 * A database URL safe to show: no user or password, and no query parameter that could carry a credential (its
 * value becomes `…`); a URL with neither is shown as the server wrote it. The server already refuses credentials in
 * the URL and never returns the token: this guards mappings made before that.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL the browser parses: drop any query string, which is where a credential would be.
    return url.replace(/\?.*$/, '');
  }
  const secretNames = [...parsed.searchParams.keys()].filter((name) => SECRET_PARAMETER.test(name));
  if (parsed.username === '' && parsed.password === '' && secretNames.length === 0) return url;
  parsed.username = '';
  parsed.password = '';
  for (const name of secretNames) parsed.searchParams.set(name, '…');
  return parsed.toString();
}
