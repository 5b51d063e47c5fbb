/** §8 "Wallet payment": the wallet's errors show in a yellow line. */
export function WalletError({ message }: { message: string }) {
  return (
    <p
      role="alert"
      data-testid="wallet-error"
      className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      {message}
    </p>
  );
}
