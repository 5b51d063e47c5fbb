import { z } from 'zod/mini';

/**
 * A release's migration map (issue 20): what this version renamed since the one before it, so a theme-file update
 * carries a merchant's values to their new names instead of dropping them. Staff upload it with the release (a JSON
 * file); the server checks every new name against the release's own files. Keys are the OLD names; values the new.
 *
 * ```json
 * {
 *   "settings": { "color_primary": "color_accent" },
 *   "color_schemes": { "background-1": "scheme-1" },
 *   "sections": { "announcement": { "type": "announcement-bar", "settings": { "text": "message" },
 *                 "blocks": { "link": { "type": "button", "settings": { "url": "link" } } } } },
 *   "blocks": { "quote": { "type": "testimonial" } }
 * }
 * ```
 * - `settings`: global settings (config/settings_schema.json ids) in config/settings_data.json.
 * - `color_schemes`: colour scheme ids; every setting of type `color_scheme` naming an old id is renamed too.
 * - `sections`: by the old section type: the new type, renamed section settings, and the section's block types.
 * - `blocks`: theme blocks (blocks/<type>.liquid) by their old type, wherever they are used.
 */
const MIGRATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
const themeId = z.string().check(z.regex(MIGRATION_ID_PATTERN, 'names are letters, digits, _ and - (at most 100)'));
const renames = z.record(themeId, themeId);

const BlockRuleSchema = z.strictObject({ type: z.optional(themeId), settings: z.optional(renames) });
const SectionRuleSchema = z.strictObject({
  type: z.optional(themeId),
  settings: z.optional(renames),
  blocks: z.optional(z.record(themeId, BlockRuleSchema)),
});

export const MigrationMapSchema = z.strictObject({
  settings: z.optional(renames),
  color_schemes: z.optional(renames),
  sections: z.optional(z.record(themeId, SectionRuleSchema)),
  blocks: z.optional(z.record(themeId, BlockRuleSchema)),
});
export type MigrationMap = z.infer<typeof MigrationMapSchema>;
export type MigrationBlockRule = z.infer<typeof BlockRuleSchema>;
export type MigrationSectionRule = z.infer<typeof SectionRuleSchema>;

/** The largest migration map file accepted (the multipart field's size). */
export const MIGRATION_MAP_MAX_BYTES = 32 * 1024;
/** At most this many renames in one map. */
export const MIGRATION_MAP_MAX_RENAMES = 1000;

/** Every rename of a map as `what: old → new` lines (the staff console shows them; the server counts them). */
export function describeMigrationMap(map: MigrationMap): string[] {
  const lines: string[] = [];
  const each = (what: string, record: Record<string, string> | undefined) => {
    for (const [from, to] of Object.entries(record ?? {})) lines.push(`${what}: ${from} → ${to}`);
  };
  each('Setting', map.settings);
  each('Colour scheme', map.color_schemes);
  for (const [type, rule] of Object.entries(map.sections ?? {})) {
    if (rule.type !== undefined) lines.push(`Section type: ${type} → ${rule.type}`);
    each(`Section ${type} setting`, rule.settings);
    for (const [blockType, block] of Object.entries(rule.blocks ?? {})) {
      if (block.type !== undefined) lines.push(`Section ${type} block type: ${blockType} → ${block.type}`);
      each(`Section ${type} block ${blockType} setting`, block.settings);
    }
  }
  for (const [type, rule] of Object.entries(map.blocks ?? {})) {
    if (rule.type !== undefined) lines.push(`Theme block type: ${type} → ${rule.type}`);
    each(`Theme block ${type} setting`, rule.settings);
  }
  return lines;
}
