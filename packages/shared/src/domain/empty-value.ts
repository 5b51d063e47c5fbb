/**
 * §3 Key: the stored text 'None' means empty. These helpers treat null, undefined,
 * '', whitespace and 'None' (any case, surrounding spaces ignored) as "no value".
 */

/** The trimmed value, or '' when it is empty in the §3 sense. */
export function normaliseOptionalText(value: string | null | undefined): string {
  if (typeof value !== 'string') return '';
  const trimmed = value.trim();
  return trimmed.toLowerCase() === 'none' ? '' : trimmed;
}

/** True when a stored text field carries no value (§3: 'None' means empty). */
export function isEmptyValue(value: string | null | undefined): boolean {
  return normaliseOptionalText(value) === '';
}
