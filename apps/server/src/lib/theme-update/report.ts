/**
 * The report of an upgrade as it is built: one item per change of the merchant's, in one group (kept, moved, review,
 * dropped), plus what the new version changed by itself. Its shape is the contract's (`ThemeFileUpdateReportBody`), so
 * the JSON download, the HTML page and the web page read the same thing.
 */
import type {
  ReleaseDetection,
  ReportItem,
  ThemeFileUpdateReportBody,
} from '@keyport/shared/contracts/theme-file-updates';
import type { Tier } from '@keyport/shared/domain/tiers';

export type { ReportItem, ThemeFileUpdateReportBody } from '@keyport/shared/contracts/theme-file-updates';

/** Facts of one side of an upgrade (read from its settings_schema.json and license snippet). */
export interface ThemeInfo {
  edition: Tier | null;
  version: string | null;
  themeName: string | null;
}

/** What `updateTheme` answers: the report body and the facts the caller stores beside it. */
export interface ThemeUpdateResult {
  report: ThemeFileUpdateReportBody;
  source: ThemeInfo;
  target: ThemeInfo;
  /** Files whose merchant copy is in the review zip (`reviewZipPathFor(output)`); empty: no review zip. */
  reviewFiles: string[];
  /** Entries written to the output zip. */
  outputEntries: number;
}

/** Where merge steps put their items. */
export interface ReportSink {
  add(item: ReportItem): void;
}

export class ReportBuilder implements ReportSink {
  readonly items: ReportItem[] = [];
  readonly warnings: string[] = [];
  readonly vendor = { updated: [] as string[], added: [] as string[], removed: [] as string[], unchanged: 0 };

  add(item: ReportItem): void {
    this.items.push(item);
  }

  build(detection: ReleaseDetection): ThemeFileUpdateReportBody {
    const count = (group: ReportItem['group']) => this.items.filter((item) => item.group === group).length;
    return {
      detection,
      summary: { kept: count('kept'), moved: count('moved'), review: count('review'), dropped: count('dropped') },
      items: this.items,
      vendor: this.vendor,
      warnings: this.warnings,
    };
  }
}
