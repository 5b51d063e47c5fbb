import { screen, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

/** Test helpers for the purchase dialogs (upgrade, credit pack): the billing form and the sandbox card field. */
export type User = ReturnType<typeof userEvent.setup>;

export const panelState = () => screen.getByTestId('payment-panel-state');
export const summary = () => screen.getByTestId('order-summary');

/** Focuses a field and pastes into it (one input event: quicker than typing each character). */
export async function fill(user: User, label: string | RegExp, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

export async function fillBilling(user: User, country = 'DE') {
  await fill(user, 'Full name', 'Erika Mustermann');
  await fill(user, 'Email', 'erika@example.com');
  await fill(user, 'Address line 1', 'Unter den Linden 1');
  await fill(user, 'City', 'Berlin');
  await fill(user, 'Postal code', '10117');
  await waitFor(() => expect(screen.getByLabelText('Country')).toBeEnabled());
  await user.selectOptions(screen.getByLabelText('Country'), country);
}

export async function fillCard(user: User, number = '4242424242424242') {
  await fill(user, 'Card number', number);
  await fill(user, 'Expiration date (MM / YY)', '1234');
  await fill(user, 'CVC', '123');
}
