import { describe, expect, it } from 'vitest';
import { isStaff, isTeamMember } from './roles';

describe('isTeamMember (§6)', () => {
  it('is true for any non-null role, false for null and for an unknown user', () => {
    expect(isTeamMember({ role: 'team' })).toBe(true);
    expect(isTeamMember({ role: '' })).toBe(true);
    expect(isTeamMember({ role: null })).toBe(false);
    expect(isTeamMember(undefined)).toBe(false);
    expect(isTeamMember(null)).toBe(false);
  });
});

describe('isStaff (issue 12)', () => {
  it("is true only for the role 'staff'", () => {
    expect(isStaff({ role: 'staff' })).toBe(true);
    expect(isStaff({ role: 'team' })).toBe(false);
    expect(isStaff({ role: 'Staff' })).toBe(false);
    expect(isStaff({ role: null })).toBe(false);
    expect(isStaff(undefined)).toBe(false);
  });
});
