// The site's public origin, which the build is told (the sitemap, robots.txt, llms.txt and the OpenAPI
// document name it): one reading of the environment for publishing and the site.

/** The environment variable that tells the build the site's public origin. */
export const ORIGIN_ENV = 'HOBA_SITE_ORIGIN';

/**
 * The site's public origin (scheme, host and port, no path) from HOBA_SITE_ORIGIN, or undefined when it is
 * unset or empty. A value that is not an http(s) origin is an error, said plainly: a wrong origin would
 * publish a sitemap of dead links.
 */
export function siteOrigin(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const value = env[ORIGIN_ENV]?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `${ORIGIN_ENV}=${value} is not a URL. Set it to the site's origin, e.g. https://atlas.example.org, or leave it unset (no sitemap is written then).`,
    );
  }
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.pathname !== '/' ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  ) {
    throw new Error(`${ORIGIN_ENV}=${value} must be an http(s) origin with no path, query or credentials, e.g. https://atlas.example.org.`);
  }
  return url.origin;
}
