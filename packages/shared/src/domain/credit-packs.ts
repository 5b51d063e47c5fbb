/**
 * Credit packs (issue 11): how an amount of credits is written for people, on receipts, invoices and at the payment
 * provider ('1 credit', '12 credits').
 */
export function creditsLabel(credits: number): string {
  return `${credits} ${credits === 1 ? 'credit' : 'credits'}`;
}

/** An invoice line or an email's subject: '12 Keyport credits', '1 Keyport credit'. */
export function keyportCreditsLabel(credits: number): string {
  return `${credits} Keyport ${credits === 1 ? 'credit' : 'credits'}`;
}
