import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names. It does not resolve conflicting Tailwind utilities (tailwind-merge would cost 8 KiB of the
 * dashboard's budget): components expose props for what callers may change instead of overriding base classes.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
