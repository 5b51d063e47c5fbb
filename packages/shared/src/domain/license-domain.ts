import { toAsciiHostname } from './hostname';
import { normaliseWebsiteDomain } from './website-domain';

/**
 * Issue 13: which storefront domains a theme token covers. A token whitelists the hosts its key was connected with
 * (validateConnectionDomains: the website's registrable domain and the subdomain as typed, the myshopify name, the
 * secondary domain). A storefront is covered when its own host, or its registrable domain, is on that list: a store
 * whitelisted as 'acme.com' may serve from 'www.acme.com' or 'shop.acme.com'; 'x.myshopify.com' is its own
 * registrable domain (myshopify.com is a public suffix), so one shop never covers another. Every function accepts
 * any string and never throws.
 */

export interface StorefrontDomain {
  /** The storefront's ASCII host as it called ('www.acme.com'). */
  host: string;
  /** Its registrable domain ('acme.com'), as store reports normalise a domain: check-ins and sightings use it. */
  site: string;
}

/** The storefront domain a theme reports (a host or a URL), or null when it is not a public website's domain. */
export function normaliseStorefrontDomain(input: string): StorefrontDomain | null {
  const host = toAsciiHostname(input);
  if (host === null) return null;
  const result = normaliseWebsiteDomain(host);
  return result.ok ? { host: result.original, site: result.host } : null;
}

/** True when a token whitelisting `whitelist` covers the storefront (its host or its registrable domain is listed). */
export function tokenCoversDomain(whitelist: readonly string[], storefront: StorefrontDomain): boolean {
  const listed = new Set(whitelist.map((entry) => entry.toLowerCase()));
  return listed.has(storefront.host) || listed.has(storefront.site);
}
