import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DropdownMenu, DropdownMenuContent } from '../../../components/ui/dropdown-menu';
import { fakeApi, json } from '../../../test/fake-api';
import { CREDIT_EVENTS, onCreditEvent } from '../../../lib/credit-events';
import { onOpenCreditsFeatureDialog } from '../open-credits-dialog';
import { BALANCE, renderWithClient } from '../test/render';
import CreditsMenuItems from './credits-menu-items';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  delete window.openCreditsDialog;
});

function renderMenu(isTeamMember: boolean, balance = BALANCE) {
  fakeApi({ 'GET /credits/balance': () => json(200, balance) });
  return renderWithClient(
    <DropdownMenu open>
      <DropdownMenuContent>
        <CreditsMenuItems isTeamMember={isTeamMember} />
      </DropdownMenuContent>
    </DropdownMenu>,
  );
}

describe('the user menu’s credits section', () => {
  it("shows 'Credits: N', the two credits dialogs and the history for a customer (no Buy Credits)", async () => {
    renderMenu(false);
    expect(await screen.findByText('3')).toBeInTheDocument();
    expect(screen.getByTestId('credits-balance')).toHaveTextContent(/^Credits: 3$/);
    expect(screen.getByRole('menuitem', { name: 'Buy License with Credits' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Earn 1 Free Credit' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Credit History' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Buy Credits' })).not.toBeInTheDocument();
  });

  it.each([
    [1, '1 credit pending review'],
    [2, '2 credits pending review'],
  ])('shows %i pending report credit(s) under the balance', async (pending, text) => {
    renderMenu(false, { balance: 0, owed: 0, pending, can_report: true });
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByTestId('credits-balance')).toHaveTextContent(`Credits: 0${text}`);
  });

  it("says 'You owe N credits' while a clawback is owed", async () => {
    renderMenu(false, { balance: 0, owed: 2, pending: 0, can_report: true });
    expect(await screen.findByText('You owe 2 credits')).toBeInTheDocument();
    expect(screen.getByTestId('credits-balance')).toHaveTextContent('Credits: 0');
  });

  it('opens dialog 9, dialog 10 and the history', async () => {
    const { user } = renderMenu(false);
    const feature = vi.fn();
    const report = vi.fn();
    const stops = [onOpenCreditsFeatureDialog(feature), onCreditEvent(CREDIT_EVENTS.openReportDialog, report)];
    await user.click(screen.getByRole('menuitem', { name: 'Buy License with Credits' }));
    expect(feature).toHaveBeenLastCalledWith('redeem');
    act(() => screen.getByRole('menuitem', { name: 'Earn 1 Free Credit' }).click());
    expect(report).toHaveBeenCalledTimes(1);
    act(() => screen.getByRole('menuitem', { name: 'Credit History' }).click());
    expect(feature).toHaveBeenLastCalledWith('history');
    expect(feature).toHaveBeenCalledTimes(2);
    stops.forEach((stop) => stop());
  });

  it('a team member also gets Buy Credits, which opens the credits checkout', async () => {
    const openCredits = vi.fn();
    window.openCreditsDialog = openCredits;
    const { user } = renderMenu(true);
    await user.click(screen.getByRole('menuitem', { name: 'Buy Credits' }));
    expect(openCredits).toHaveBeenCalledTimes(1);
  });
});
