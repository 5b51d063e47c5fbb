import type { CreditPack, StaffCreditPackSchema } from '@keyport/shared/contracts/credits';
import { formatUsd } from '@keyport/shared/domain/money';
import { isTeamMember } from '@keyport/shared/domain/roles';
import type { z } from 'zod/mini';
import type { Db, DbOrTx } from '../../db/client';
import { forbidden, notFound } from '../../http/errors';
import type { AuditService } from '../audit/audit.service';
import * as repo from './credit-packs.repo';

export const TEAM_ONLY = 'Credit packs are for team members only.';
export const CREDIT_PACK_NOT_FOUND = 'This credit pack is not on sale.';

/** The packs a new catalogue starts with (staff reprice them; `sandboxPriceId` names the sandbox's price). */
export const DEFAULT_CREDIT_PACKS = [
  { name: '5 credits', credits: 5, amountCents: 2500, sandboxPriceId: 'price_sandbox_credits_5' },
  { name: '12 credits', credits: 12, amountCents: 5000, sandboxPriceId: 'price_sandbox_credits_12' },
] as const;

export type StaffCreditPack = z.infer<typeof StaffCreditPackSchema>;

/** Who is asking: the signed-in user's id and role (§6: a team member's role is not null). */
export interface Buyer {
  id: number;
  role: string | null;
}

/** What staff send for a pack (the contract's body). */
export interface CreditPackInput {
  name: string;
  credits: number;
  amount_cents: number;
  provider_price_id: string | null;
  active?: boolean;
  /** Why staff made the change (issue 12): the audit entry keeps it. */
  reason: string;
}

export interface CreditPacksServiceDeps {
  db: Db;
  audit: Pick<AuditService, 'record'>;
}

/**
 * Credit packs (issue 11): what team members buy with money through the card and PayPal paths (modules/payments
 * owns the orders). Priced by staff; every change is audited in its own transaction.
 */
export function createCreditPacksService({ db, audit }: CreditPacksServiceDeps) {
  function requireTeamMember(buyer: Buyer): void {
    if (!isTeamMember(buyer)) throw forbidden(TEAM_ONLY, 'team_only');
  }

  /** A staff change to the catalogue and its audit entry (the pack as it is now), in one transaction. */
  async function change(
    staffId: number,
    action: string,
    reason: string,
    write: (tx: DbOrTx) => Promise<repo.CreditPackRow>,
  ): Promise<StaffCreditPack> {
    return db.transaction(async (tx) => {
      const pack = toStaffCreditPack(await write(tx));
      await audit.record(tx, {
        actor: { type: 'staff', id: staffId },
        action,
        object: { type: 'credit_pack', id: pack.id },
        reason,
        data: pack,
      });
      return pack;
    });
  }

  return {
    /** GET /credits/packs: the packs on sale, cheapest first; team members only. */
    async listForBuyer(buyer: Buyer): Promise<CreditPack[]> {
      requireTeamMember(buyer);
      return (await repo.listPacks(db, { activeOnly: true })).map(toCreditPack);
    },

    /** The pack a team member is about to pay for (payments quotes it): 403 for anyone else, 404 when not on sale. */
    async packForCheckout(buyer: Buyer, packId: number): Promise<repo.CreditPackRow> {
      requireTeamMember(buyer);
      const pack = await repo.findActivePack(db, packId);
      if (!pack) throw notFound(CREDIT_PACK_NOT_FOUND, 'credit_pack_not_found');
      return pack;
    },

    async staffList(): Promise<StaffCreditPack[]> {
      return (await repo.listPacks(db, { activeOnly: false })).map(toStaffCreditPack);
    },

    create: (staffId: number, input: CreditPackInput) =>
      change(staffId, 'credit_pack.created', input.reason, (tx) => repo.insertPack(tx, toValues(input))),

    update: (staffId: number, packId: number, input: CreditPackInput) =>
      change(staffId, 'credit_pack.updated', input.reason, async (tx) => {
        const updated = await repo.updatePack(tx, packId, toValues(input));
        if (!updated) throw notFound('Credit pack not found.', 'credit_pack_not_found');
        return updated;
      }),

    /**
     * Puts the default packs into an empty catalogue (on every start; idempotent). The sandbox gets its own price
     * ids; with Stripe, staff set each pack's provider price id (until then the pack is not buyable by card).
     */
    async ensureCatalogue(withSandboxPriceIds: boolean): Promise<void> {
      await repo.seedPacksIfEmpty(
        db,
        DEFAULT_CREDIT_PACKS.map((pack) => ({
          name: pack.name,
          credits: pack.credits,
          amountCents: pack.amountCents,
          providerPriceId: withSandboxPriceIds ? pack.sandboxPriceId : null,
        })),
      );
    },
  };
}
export type CreditPacksService = ReturnType<typeof createCreditPacksService>;
/** A pack as the catalogue keeps it (payments quotes from it). */
export type CreditPackRow = repo.CreditPackRow;

function toValues(input: CreditPackInput): repo.CreditPackValues {
  return {
    name: input.name,
    credits: input.credits,
    amountCents: input.amount_cents,
    providerPriceId: input.provider_price_id,
    active: input.active ?? true,
  };
}

/** Priced as upgrade options are: formatted USD and the integer cents. */
function toCreditPack(pack: repo.CreditPackRow): CreditPack {
  return {
    id: pack.id,
    name: pack.name,
    credits: pack.credits,
    price: formatUsd(pack.amountCents),
    price_cents: pack.amountCents,
    priceId: pack.providerPriceId,
  };
}

function toStaffCreditPack(pack: repo.CreditPackRow): StaffCreditPack {
  return { ...toCreditPack(pack), active: pack.active };
}
