import { normaliseOptionalText } from '@keyport/shared/domain/empty-value';
import {
  normaliseMyshopifyField,
  normaliseWebsiteDomain,
  WEBSITE_DOMAIN_MESSAGES,
} from '@keyport/shared/domain/website-domain';

/** The three fields of the edit panel's Setup URLs step (§2 dialog 2). */
export type DomainField = 'main' | 'myshopify' | 'secondary';
export type DomainValues = Record<DomainField, string>;

export type DomainFieldsCheck =
  | { ok: false; errors: Partial<Record<DomainField, string>> }
  | {
      ok: true;
      /** What each field shows once checked: the normalised host ('' when empty). */
      normalised: DomainValues;
      /** The §5 conversion notice of a field whose subdomain became its main domain. */
      notices: Partial<Record<DomainField, string>>;
    };

/**
 * §5 "Edit panel", field by field, so each message sits under the field it is about: a website or secondary domain
 * must be a name under a real public suffix (a subdomain is converted, with its notice), the platform domain a valid
 * myshopify name, and at least one of them is needed — that message sits under the first field. The same rules as
 * `validateConnectionDomains`, which the server applies to the whole request.
 */
export function checkDomainFields(values: DomainValues): DomainFieldsCheck {
  const main = normaliseOptionalText(values.main);
  const myshopify = normaliseOptionalText(values.myshopify);
  const secondary = normaliseOptionalText(values.secondary);
  if (main === '' && myshopify === '' && secondary === '') {
    return { ok: false, errors: { main: WEBSITE_DOMAIN_MESSAGES.required } };
  }
  const errors: Partial<Record<DomainField, string>> = {};
  const notices: Partial<Record<DomainField, string>> = {};
  const normalised: DomainValues = { main: '', myshopify: '', secondary: '' };
  for (const field of ['main', 'secondary'] as const) {
    const value = field === 'main' ? main : secondary;
    if (value === '') continue;
    const result = normaliseWebsiteDomain(value);
    if (!result.ok) errors[field] = result.error;
    else {
      normalised[field] = result.host;
      if (result.notice) notices[field] = result.notice;
    }
  }
  if (myshopify !== '') {
    const result = normaliseMyshopifyField(myshopify);
    if (result.ok) normalised.myshopify = result.host;
    else errors.myshopify = result.error;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, normalised, notices };
}
