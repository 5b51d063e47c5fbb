import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { AUTH_ERROR_CODES } from '@keyport/shared/contracts/auth';
import { computeSupportStatus, describeSupportStatus } from '@keyport/shared/domain/support-status';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { ApiError } from '../../../lib/api-client';
import { useMe } from '../api/get-me';
import { useChangePassword, useUpdateProfile } from '../api/update-account';
import { InvoicesTab } from './invoices-tab';
import type { SettingsTab } from './settings-dialog-context';

interface SettingsDialogProps {
  tab: SettingsTab;
  onTabChange: (tab: SettingsTab) => void;
  onClose: () => void;
  /** What to give focus back to on close. */
  opener: HTMLElement | null;
}

export default function SettingsDialog({ tab, onTabChange, onClose, opener }: SettingsDialogProps) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent title="Settings" size="lg" opener={opener}>
        <Tabs value={tab} onValueChange={(value) => onTabChange(value as SettingsTab)}>
          <TabsList>
            <TabsTrigger value="profile">Profile</TabsTrigger>
            <TabsTrigger value="password">Password</TabsTrigger>
            <TabsTrigger value="invoices">Invoices</TabsTrigger>
          </TabsList>
          <TabsContent value="profile">
            <ProfileTab />
          </TabsContent>
          <TabsContent value="password">
            <PasswordTab />
          </TabsContent>
          <TabsContent value="invoices">
            <InvoicesTab />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}

function ProfileTab() {
  const me = useMe();
  const update = useUpdateProfile();
  const [name, setName] = useState(me.data?.name ?? '');
  if (!me.data) return null;
  const support = describeSupportStatus(computeSupportStatus(me.data, new Date()));

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate({ name }, { onSuccess: () => toast.success('Profile saved') });
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field
        label="Name"
        autoComplete="name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          if (update.error) update.reset();
        }}
      />
      <Field label="Email" value={me.data.email} readOnly disabled />
      <div className="rounded-lg bg-slate-50 px-3 py-2 text-sm">
        <span className="text-slate-500">Theme support: </span>
        <span className="font-medium text-slate-900" data-testid="support-status">
          {support}
        </span>
      </div>
      {update.error ? <Alert>{update.error.message}</Alert> : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={update.isPending || !name.trim() || name === me.data.name}>
          {update.isPending ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}

function PasswordTab() {
  const change = useChangePassword();
  const [form, setForm] = useState({ current: '', next: '', repeat: '' });
  const mismatch = form.repeat.length > 0 && form.next !== form.repeat;
  /** An edit answers the last refusal: its message (under the current password, or above the button) goes. */
  const edit = (patch: Partial<typeof form>) => {
    setForm({ ...form, ...patch });
    if (change.error) change.reset();
  };
  const wrongCurrent = change.error instanceof ApiError && change.error.code === AUTH_ERROR_CODES.wrongPassword;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (mismatch) return;
    change.mutate(
      { current_password: form.current, new_password: form.next },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          setForm({ current: '', next: '', repeat: '' });
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={form.current}
        error={wrongCurrent ? change.error?.message : null}
        onChange={(e) => edit({ current: e.target.value })}
      />
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters."
        value={form.next}
        onChange={(e) => edit({ next: e.target.value })}
      />
      <Field
        label="Repeat new password"
        type="password"
        autoComplete="new-password"
        error={mismatch ? 'The passwords do not match' : null}
        value={form.repeat}
        onChange={(e) => edit({ repeat: e.target.value })}
      />
      {change.error && !wrongCurrent ? <Alert>{change.error.message}</Alert> : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={change.isPending || !form.current || !form.next || !form.repeat || mismatch}>
          {change.isPending ? 'Saving…' : 'Change password'}
        </Button>
      </div>
    </form>
  );
}
