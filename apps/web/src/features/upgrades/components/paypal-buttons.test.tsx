import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PaypalButtons from './paypal-buttons';

// PayPal's SDK comes from the internet: its loader is replaced, and `window.paypal` is a recording stand-in.
const loadScript = vi.hoisted(() => vi.fn());
vi.mock('@paypal/paypal-js', () => ({ loadScript }));

interface ButtonsOptions {
  createOrder: () => Promise<string>;
  onApprove: (data: { orderID: string }) => Promise<void>;
  onCancel: (data: Record<string, unknown>) => void;
  onError: (error: unknown) => void;
}

afterEach(() => {
  vi.clearAllMocks();
  vi.restoreAllMocks();
  delete (window as { paypal?: unknown }).paypal;
});

function handlers() {
  return {
    createOrder: vi.fn(async () => 'ORDER-1'),
    onApprove: vi.fn(async () => undefined),
    onCancel: vi.fn(),
    onError: vi.fn(),
  };
}

describe("PayPal's Buttons (with a client id)", () => {
  it("a rejected SDK load calls onError and writes nothing to the console (the provider's loader would)", async () => {
    const consoleError = vi.spyOn(console, 'error');
    loadScript.mockRejectedValue(new Error('The script "https://www.paypal.com/sdk/js" failed to load.'));
    const props = handlers();
    render(<PaypalButtons clientId="AZ-client" disabled={false} {...props} />);
    await waitFor(() => expect(props.onError).toHaveBeenCalledTimes(1));
    expect(loadScript).toHaveBeenCalledWith(
      expect.objectContaining({ clientId: 'AZ-client', intent: 'capture', currency: 'USD' }),
    );
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('renders the SDK Buttons with capture intent and wires createOrder, onApprove, onCancel and onError', async () => {
    let options: ButtonsOptions | null = null;
    const render$ = vi.fn(async (container: HTMLElement) => {
      container.append(Object.assign(document.createElement('span'), { textContent: 'PayPal Buttons' }));
    });
    (window as { paypal?: unknown }).paypal = {
      Buttons: (given: ButtonsOptions) => {
        options = given;
        return { isEligible: () => true, render: render$, close: async () => undefined, updateProps: undefined };
      },
    };
    loadScript.mockResolvedValue((window as { paypal?: unknown }).paypal);
    const props = handlers();
    render(<PaypalButtons clientId="AZ-client" disabled={false} {...props} />);
    expect(await screen.findByText('PayPal Buttons')).toBeInTheDocument();

    await expect(options!.createOrder()).resolves.toBe('ORDER-1');
    await options!.onApprove({ orderID: 'ORDER-1' });
    expect(props.onApprove).toHaveBeenCalledWith('ORDER-1');
    options!.onCancel({ orderID: 'ORDER-1' });
    expect(props.onCancel).toHaveBeenCalledWith('ORDER-1');
    options!.onCancel({});
    expect(props.onCancel).toHaveBeenLastCalledWith(null);
    options!.onError(new Error('popup closed'));
    expect(props.onError).toHaveBeenCalled();
  });
});
