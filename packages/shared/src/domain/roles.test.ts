import { describe, expect, it } from 'vitest';
import { isTeamMember } from './roles';

describe('isTeamMember (§6)', () => {
  it('is true for any non-null role, false for null and for an unknown user', () => {
    expect(isTeamMember({ role: 'team' })).toBe(true);
    expect(isTeamMember({ role: '' })).toBe(true);
    expect(isTeamMember({ role: null })).toBe(false);
    expect(isTeamMember(undefined)).toBe(false);
    expect(isTeamMember(null)).toBe(false);
  });
});
