import { startTransition, useEffect, useRef, useState, type ButtonHTMLAttributes } from 'react';

/**
 * A menu whose code (Radix DropdownMenu and its positioning) loads right after the first paint, outside the initial
 * bundle: the page paints a placeholder trigger, then the real one takes its place. A press, click or key on the
 * placeholder opens the menu once its code is here, and focus on it moves to the real trigger.
 *
 * Radix's trigger opens on the press (pointerdown), so the placeholder does too: a press that starts on the
 * placeholder and ends on the real trigger (it took the placeholder's place meanwhile, on a slow phone) still opens it.
 */
export function useDeferredMenu() {
  const [load, setLoad] = useState(false);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const focused = useRef(false);

  useEffect(() => {
    // After the first paint, as a transition (ADR 045): rendered in slices, not in one task that blocks input.
    const timer = setTimeout(() => startTransition(() => setLoad(true)), 0);
    return () => clearTimeout(timer);
  }, []);

  const open = () => {
    setOpenOnLoad(true);
    setLoad(true);
  };
  const placeholderProps: ButtonHTMLAttributes<HTMLButtonElement> = {
    type: 'button',
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onFocus: () => (focused.current = true),
    onBlur: (event) => {
      if (event.relatedTarget) focused.current = false;
    },
    onPointerDown: (event) => {
      if (event.button > 0 || event.ctrlKey) return;
      open();
    },
    onClick: open,
  };
  return { load, openOnLoad, takeFocus: focused.current, placeholderProps };
}
