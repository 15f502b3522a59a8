import { Readable } from "node:stream";

/**
 * CSV as RFC 4180 writes it (comma-separated, CRLF line ends, quoted where needed), streamed:
 * an export of a year of minute rollups is hundreds of thousands of lines that must never sit in
 * memory at once.
 */

/**
 * Excel takes a file without a byte order mark for its local code page, and turns a farm's MCU
 * names in Arabic (or the ° of a unit) into mojibake; LibreOffice, Sheets and CSV libraries skip it.
 */
export const UTF8_BOM = "\uFEFF";

/**
 * Where a cell ends for some reader: a spreadsheet splits a CSV file on its locale's list
 * separator (`,` or `;`), an import dialog offers tab and `|` too, and a reader that ignores
 * quotes ends a line at a line break. Quotes protect a cell only from a reader splitting on `,`.
 */
const CELL_END = /[",;\t|\r\n]/;

/** A formula start right after a cell end, past any quotes (a reader unquotes `;"=…`). */
const FORMULA_AFTER_CELL_END = /([,;\t|\r\n])(?="*[=+\-@])/g;

/**
 * A text field. A cell that starts with =, +, -, @ (or a tab or carriage return) is run as a
 * formula by spreadsheets, so a name like `=HYPERLINK(...)` gets a leading apostrophe, which
 * spreadsheets show as text; so does a formula start after any character that ends a cell for
 * some reader (`zz;=1+cmd|...` is two cells where `;` separates), or a reader would run the rest
 * as a formula. A text holding a quote or one of those characters is quoted. Numbers are written
 * with `num` and never altered.
 */
export function text(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const inner = value.replace(FORMULA_AFTER_CELL_END, "$1'");
  const safe = /^[=+\-@\t\r]/.test(inner) ? `'${inner}` : inner;
  return CELL_END.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * Decimals a reading keeps in a CSV: rollups are stored as 4-byte floats, whose shortest exact
 * text carries noise past any sensor's precision (99.666664 for 99.67).
 */
export const READING_DECIMALS = 2;

/** A number field (empty when null), rounded to `decimals` when given (trailing zeros dropped). */
export function num(value: number | null | undefined, decimals?: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "";
  if (decimals === undefined) return String(value);
  const scale = 10 ** decimals;
  return String(Math.round(value * scale) / scale);
}

export function bool(value: boolean | null | undefined, yes = "on", no = "off"): string {
  return value === null || value === undefined ? "" : value ? yes : no;
}

/** An instant as ISO 8601 UTC; whole seconds drop the milliseconds (buckets start on the minute). */
export function time(ms: number): string {
  const s = new Date(ms).toISOString();
  return s.endsWith(".000Z") ? `${s.slice(0, -5)}Z` : s;
}

export const line = (fields: readonly string[]) => `${fields.join(",")}\r\n`;

/**
 * The writer of a local-time column in `timeZone` (an IANA name): ISO 8601 with the zone's offset
 * at that instant (2026-07-01T15:00:00+03:00), beside the UTC column that stays the file's key.
 * The offset is asked of Intl once per quarter hour of the file (every zone's offset changes on a
 * quarter hour), not once per line: a year of minutes is half a million lines.
 */
export function localTimeIn(timeZone: string): (ms: number) => string {
  const format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
  const offsets = new Map<number, { ms: number; text: string }>();
  const offsetAt = (ms: number) => {
    const key = Math.floor(ms / 900_000);
    let o = offsets.get(key);
    if (!o) {
      // "GMT+05:30", "GMT-04:00", or "GMT" for UTC itself.
      const name = format.formatToParts(new Date(ms)).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
      const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
      o = m ? { ms: (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3_600_000 + Number(m[3]) * 60_000), text: `${m[1]}${m[2]}:${m[3]}` } : { ms: 0, text: "+00:00" };
      if (offsets.size > 10_000) offsets.clear();
      offsets.set(key, o);
    }
    return o;
  };
  return (ms) => {
    const o = offsetAt(ms);
    const local = new Date(ms + o.ms).toISOString();
    return `${local.slice(0, 19)}${local.slice(19, 23) === ".000" ? "" : local.slice(19, 23)}${o.text}`;
  };
}

/**
 * CSV lines whose first field is a UTC time as `time` writes it, with `local(ms)` added as the
 * second field (the series export's lines are built by the database).
 */
export function withLocalTimes(lines: string, local: (ms: number) => string): string {
  let out = "";
  let start = 0;
  while (start < lines.length) {
    const comma = lines.indexOf(",", start);
    const end = lines.indexOf("\r\n", start);
    const stop = end === -1 ? lines.length : end + 2;
    if (comma === -1 || (end !== -1 && comma > end)) {
      out += lines.slice(start, stop);
    } else {
      out += `${lines.slice(start, comma)},${local(Date.parse(lines.slice(start, comma)))}${lines.slice(comma, stop)}`;
    }
    start = stop;
  }
  return out;
}

/**
 * The bytes of a CSV export: the header line, then each piece of `body` (whole lines) as it comes.
 * Pieces are pulled only as the client reads: `Readable.from` asks the generator for the next one
 * when the stream's buffer is below its mark, and piping to the socket stops reading while the
 * socket is full, so a slow client holds a piece or two in this process, never the file. When the
 * client goes away the reply destroys the stream, the generator is returned at its next `yield`,
 * and no further query runs.
 */
export function csvStream(header: readonly string[], body: AsyncIterable<string>): Readable {
  async function* all(): AsyncGenerator<string> {
    yield UTF8_BOM + line(header);
    yield* body;
  }
  return Readable.from(all(), { objectMode: false, highWaterMark: 64 * 1024 });
}

/** Chunks of rows as pieces of CSV, a line per row. */
export async function* linesOf<T>(chunks: AsyncIterable<T[]>, toLine: (row: T) => string): AsyncGenerator<string> {
  for await (const rows of chunks) {
    let out = "";
    for (const row of rows) out += toLine(row);
    yield out;
  }
}

/** A file name part: letters and digits of any script, the rest folded into single dashes. */
function slug(name: string): string {
  return name
    .normalize("NFC")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

/** The same in ASCII for the plain `filename` (accents dropped, other scripts gone). */
function asciiSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

/** 2026-11-25T06:00:00.000Z -> 20261125T0600Z (with the seconds when they are not zero). */
function stamp(ms: number): string {
  const s = new Date(ms).toISOString();
  const compact = `${s.slice(0, 4)}${s.slice(5, 7)}${s.slice(8, 10)}T${s.slice(11, 13)}${s.slice(14, 16)}`;
  return s.slice(17, 19) === "00" ? `${compact}Z` : `${compact}${s.slice(17, 19)}Z`;
}

/**
 * `attachment` with the file name `<name>_<what>[_<from>_<to>].csv`: `filename` in ASCII for old
 * clients, `filename*` with the name as written (RFC 6266).
 */
export function attachment(name: string, what: string, fromMs?: number, toMs?: number): string {
  const rest = [what, ...[fromMs, toMs].filter((t): t is number => t !== undefined).map(stamp)].join("_");
  const ascii = `${asciiSlug(name) || "export"}_${rest}.csv`;
  const full = `${slug(name) || "export"}_${rest}.csv`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(full)}`;
}

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";
