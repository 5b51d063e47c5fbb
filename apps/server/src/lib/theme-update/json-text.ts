/**
 * Shopify's theme JSON (templates, section groups, settings_data, locales) read and edited with `jsonc-parser`: a
 * UTF-8 BOM, `/* *\/` and `//` comments (Shopify starts generated files with a comment block) and trailing commas are
 * accepted. Edits are made in place on the text (`modify` + `applyEdits`): only the edited value's bytes change, every
 * other byte — key order, indentation, comments, escapes, number spellings — stays as it was.
 */
import {
  applyEdits,
  modify,
  parse,
  printParseErrorCode,
  type FormattingOptions,
  type JSONPath,
  type ParseError,
} from 'jsonc-parser';
import { ThemeUpdateError } from './errors';

const BOM = '\uFEFF';
const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

/** Parses one theme JSON file; throws ThemeUpdateError('invalid_theme_json') naming the file. */
export function parseThemeJson(text: string, fileName: string): unknown {
  const body = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  // jsonc-parser assigns members to plain objects: "__proto__" would set a prototype instead of a member.
  if (/"__proto__"\s*:/.test(body)) {
    throw new ThemeUpdateError('invalid_theme_json', `${fileName} uses the reserved key "__proto__"`);
  }
  // Most theme JSON is plain JSON: the native parser first (several times faster), Shopify's dialect when it is not.
  try {
    return JSON.parse(body) as unknown;
  } catch {
    // Comments, trailing commas, or not JSON at all: jsonc-parser tells which.
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(body, errors, PARSE_OPTIONS);
  const first = errors[0];
  if (first !== undefined || value === undefined) {
    const detail = first ? `${printParseErrorCode(first.error)} at character ${first.offset + 1}` : 'empty';
    throw new ThemeUpdateError('invalid_theme_json', `${fileName} is not valid JSON (${detail})`);
  }
  return value;
}

/** A JSON text edited in place, value by value, in the file's own style (indentation and line ends). */
export class JsonTextEditor {
  private text: string;
  private readonly bom: string;
  private readonly formatting: FormattingOptions;
  private edits = 0;

  constructor(original: string) {
    this.bom = original.startsWith(BOM) ? BOM : '';
    this.text = original.slice(this.bom.length);
    this.formatting = detectFormatting(this.text);
  }

  /** Sets the value at `path` (creating missing objects on the way); `undefined` removes the member. */
  set(path: JSONPath, value: unknown): void {
    const edits = modify(this.text, path, value, { formattingOptions: this.formatting });
    if (edits.length === 0) return;
    this.text = applyEdits(this.text, edits);
    this.edits += 1;
  }

  remove(path: JSONPath): void {
    this.set(path, undefined);
  }

  get changed(): boolean {
    return this.edits > 0;
  }

  toString(): string {
    return this.bom + this.text;
  }
}

/** The file's indentation (spaces or a tab; the first indented member) and line ends. */
export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)"/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: indent === undefined ? 2 : Math.min(indent.length, 8), eol };
}
