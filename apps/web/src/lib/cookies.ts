type CookieOptions = { maxAgeSeconds?: number };

export function getCookie(name: string): string | null {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const trimmed = part.trim();
    if (trimmed.startsWith(prefix)) {
      return decodeURIComponent(trimmed.slice(prefix.length));
    }
  }
  return null;
}

export function setCookie(name: string, value: string, { maxAgeSeconds }: CookieOptions = {}): void {
  const parts = [`${encodeURIComponent(name)}=${encodeURIComponent(value)}`, 'path=/', 'SameSite=Lax'];
  if (maxAgeSeconds !== undefined) {
    parts.push(`max-age=${maxAgeSeconds}`);
  }
  if (window.location.protocol === 'https:') {
    parts.push('Secure');
  }
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and not in every browser.
  document.cookie = parts.join('; ');
}

export function deleteCookie(name: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and not in every browser.
  document.cookie = `${encodeURIComponent(name)}=; path=/; max-age=0; SameSite=Lax`;
}
