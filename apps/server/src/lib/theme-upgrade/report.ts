import type { Tier } from '@keyport/shared/domain/tiers';

/** One setting value carried into the output. `scope` is where it lives, e.g. 'current' or 'sections.hero.blocks.b1'. */
export interface SettingValueEntry {
  file: string;
  scope: string;
  id: string;
  value: unknown;
}

export interface SettingChangedEntry extends SettingValueEntry {
  /** Why it counts as changed (the target setting's type changed; a new license token). */
  note: string;
}

export interface SettingDroppedEntry {
  file: string;
  scope: string;
  id: string;
  /** The merchant's value, as it was. */
  oldValue: unknown;
  reason: string;
}

export interface SectionEntry {
  file: string;
  /** 'sections.<key>' or 'sections.<key>.blocks.<key>'. */
  scope: string;
  type: string;
}

export interface SectionDroppedEntry extends SectionEntry {
  reason: string;
  /** The whole section or block as the merchant had it (settings, blocks, order). */
  oldValue: unknown;
}

export interface LocaleEntry {
  file: string;
  key: string;
  value: unknown;
}

export interface LocaleDroppedEntry extends LocaleEntry {
  reason: string;
}

export interface ThemeUpgradeReport {
  source: { edition: Tier | null; version: string | null; themeName: string | null };
  target: { edition: Tier | null; version: string | null; themeName: string | null };
  /** Whether the original release of the merchant's version was known (then "edited" is exact). */
  originalKnown: boolean;
  settings: { kept: SettingValueEntry[]; changed: SettingChangedEntry[]; dropped: SettingDroppedEntry[] };
  sections: { kept: SectionEntry[]; dropped: SectionDroppedEntry[] };
  files: {
    /** Files the merchant added (absent from the original release): copied as they are. */
    added: string[];
    /** Files the merchant edited: the target's version is in the output, the merchant's copy in the review zip. */
    edited: string[];
    /** The original is unknown and the merchant's bytes differ from the target's: target kept, copy in review zip. */
    unverified: string[];
    /** The merchant's copy was the vendor's: replaced by the target's version. */
    updated: string[];
    /** Identical in the merchant's theme and the target. */
    kept: string[];
    /** The vendor's file (untouched by the merchant) that the target release no longer has. */
    removedInTarget: string[];
    /** JSON merged setting by setting / section by section / key by key (details above and below). */
    merged: string[];
    /** Files the target release adds. */
    newInTarget: string[];
    /** Every file whose merchant copy is in the review zip (edited + unverified), see `reviewZipPathFor`. */
    review: string[];
  };
  locales: { kept: LocaleEntry[]; dropped: LocaleDroppedEntry[]; vendorTextUpdated: number };
  counts: {
    settingsKept: number;
    settingsChanged: number;
    settingsDropped: number;
    sectionsKept: number;
    sectionsDropped: number;
    filesAdded: number;
    filesEdited: number;
    filesInOutput: number;
    localeKeysKept: number;
    localeKeysDropped: number;
  };
}
