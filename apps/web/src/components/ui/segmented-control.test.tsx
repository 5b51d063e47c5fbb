import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SegmentedControl } from './segmented-control';

function TypeFilter() {
  const [value, setValue] = useState<'ALL' | 'PRO' | 'REGULAR' | 'LITE'>('ALL');
  return (
    <>
      <button type="button">before</button>
      <SegmentedControl
        label="License type"
        value={value}
        options={['ALL', 'PRO', 'REGULAR', 'LITE']}
        onChange={setValue}
      />
      <button type="button">after</button>
    </>
  );
}

const radio = (name: string) => screen.getByRole('radio', { name });

describe('SegmentedControl (WAI-ARIA radio group)', () => {
  it('is a radio group with one tab stop, the checked option', async () => {
    const user = userEvent.setup();
    render(<TypeFilter />);
    expect(screen.getByRole('radiogroup', { name: 'License type' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(document.activeElement).toBe(radio('ALL'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'after' }));
  });

  it('moves and selects with the arrow keys, wrapping around, and with Home and End', async () => {
    const user = userEvent.setup();
    render(<TypeFilter />);
    radio('ALL').focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(radio('PRO'));
    expect(radio('PRO').getAttribute('aria-checked')).toBe('true');
    expect(radio('ALL').getAttribute('aria-checked')).toBe('false');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(radio('LITE').getAttribute('aria-checked')).toBe('true');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(radio('ALL'));
    expect(radio('ALL').getAttribute('aria-checked')).toBe('true');
    await user.keyboard('{ArrowLeft}');
    expect(radio('LITE').getAttribute('aria-checked')).toBe('true');
    await user.keyboard('{Home}');
    expect(radio('ALL').getAttribute('aria-checked')).toBe('true');
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(radio('LITE'));
    expect(radio('LITE').getAttribute('aria-checked')).toBe('true');
    // The tab stop follows the selection.
    expect(radio('LITE').tabIndex).toBe(0);
    expect(radio('ALL').tabIndex).toBe(-1);
  });
});
