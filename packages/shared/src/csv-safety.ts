/**
 * Spreadsheet formula safety of CSV cells. A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@`
 * (or a tab or carriage return) as a formula, so an exported cell that starts so gets a single quote in
 * front, which spreadsheets show as plain text; an import takes that quote away again. A cell whose text
 * already starts with quotes before such a character gets one more quote too, so that every text comes
 * back from export then import exactly as it was.
 */

/** Starts like a formula, after any quotes already there. */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
/** A quote the export put in front of such a cell. */
const ESCAPED = /^'+[=+\-@\t\r]/;

/** The cell as exported: one quote in front of a formula-like text, anything else as it is. */
export function escapeCsvFormula(value: string): string {
  return FORMULA_LIKE.test(value) ? `'${value}` : value;
}

/** The cell as imported: a quote followed by a formula character loses that one quote. */
export function unescapeCsvFormula(value: string): string {
  return ESCAPED.test(value) ? value.slice(1) : value;
}
