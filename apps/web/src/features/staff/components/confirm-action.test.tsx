import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { ConfirmAction } from './confirm-action';

function settle() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const renderAction = (onConfirm: (reason: string) => Promise<unknown>) =>
  render(
    <ConfirmAction
      triggerLabel="Revoke"
      title="Revoke this token?"
      description="The token stops working at once. This cannot be undone."
      confirmLabel="Revoke token"
      tone="danger"
      onConfirm={onConfirm}
    />,
  );

const reasonBox = () => screen.getByRole('textbox', { name: 'Reason' });
const confirmButton = () => screen.getByRole('button', { name: /Revoke token|Working/ });

describe('ConfirmAction', () => {
  it('says what will happen and requires a reason of at least 3 characters (trimmed) before calling', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(() => Promise.resolve());
    renderAction(onConfirm);
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke this token?' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('The token stops working at once. This cannot be undone.')).toBeTruthy();

    await user.click(confirmButton());
    expect(screen.getByRole('alert').textContent).toBe('Give a reason (at least 3 characters)');
    expect(reasonBox().getAttribute('aria-invalid')).toBe('true');
    await user.type(reasonBox(), '  ab  ');
    await user.click(confirmButton());
    expect(onConfirm).not.toHaveBeenCalled();

    await user.clear(reasonBox());
    await user.type(reasonBox(), '  Leaked in a forum post ');
    await user.click(confirmButton());
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith('Leaked in a forum post');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cannot be submitted twice: the button is disabled until the server answers, and the dialog stays', async () => {
    const user = userEvent.setup();
    const call = settle();
    const onConfirm = vi.fn(() => call.promise);
    renderAction(onConfirm);
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await user.type(reasonBox(), 'Customer asked');
    await user.click(confirmButton());
    expect(confirmButton()).toHaveProperty('disabled', true);
    expect(confirmButton().textContent).toBe('Working…');
    await user.click(confirmButton());
    await user.keyboard('{Enter}');
    await user.keyboard('{Escape}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('dialog')).toBeTruthy();

    call.resolve();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's error and stays open with the reason kept, so the person can retry", async () => {
    const user = userEvent.setup();
    const onConfirm = vi
      .fn<(reason: string) => Promise<unknown>>()
      .mockRejectedValueOnce(new ApiError(409, 'This token was already used', 'token_used'))
      .mockResolvedValueOnce(undefined);
    renderAction(onConfirm);
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await user.type(reasonBox(), 'Customer asked');
    await user.click(confirmButton());
    expect((await screen.findByRole('alert')).textContent).toBe('This token was already used');
    expect((reasonBox() as HTMLTextAreaElement).value).toBe('Customer asked');
    expect(confirmButton()).toHaveProperty('disabled', false);

    await user.click(confirmButton());
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('forgets the reason when cancelled', async () => {
    const user = userEvent.setup();
    renderAction(() => Promise.resolve());
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await user.type(reasonBox(), 'Half a thought');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    expect((reasonBox() as HTMLTextAreaElement).value).toBe('');
  });

  it('checks its own fields together with the reason: one failing keeps the dialog open and calls nothing', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(() => Promise.resolve());
    let fieldsValid = false;
    const checkFields = vi.fn(async () => fieldsValid);
    render(
      <ConfirmAction
        triggerLabel="Edit"
        title="Edit the price"
        description="New checkouts use it."
        confirmLabel="Save"
        checkFields={checkFields}
        onConfirm={onConfirm}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    // An empty reason and failing fields: both are checked (each shows its own error), nothing is called.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(checkFields).toHaveBeenCalledTimes(1);
    expect(reasonBox().getAttribute('aria-invalid')).toBe('true');
    await user.type(reasonBox(), 'New season');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(checkFields).toHaveBeenCalledTimes(2);
    expect(reasonBox().getAttribute('aria-invalid')).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Edit the price' })).toBeTruthy();

    fieldsValid = true;
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith('New season');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
