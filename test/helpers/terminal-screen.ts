/**
 * A minimal terminal for tests: applies the bytes the renderer writes and keeps the resulting
 * screen (and scrollback) as cells with their style and hyperlink. It understands only what the
 * renderer may emit (CR, LF, CSI K, CSI A, CSI B, SGR, OSC 8 and printable text) and throws on
 * anything else, so a test also proves that no other escape or control character reaches the
 * terminal. It wraps like xterm: a character written in the last column leaves the cursor there
 * with a pending wrap, which the next printable character performs. LF acts as CR LF (the tty's
 * ONLCR). It also counts writes to rows the cursor had already left, which the renderer must
 * never do. `resize` changes its width as xterm does (rows cut at the new edge) or as tmux does
 * (each line re-wrapped to the new width, the cursor kept at its place in its line).
 */
import { codePointWidth } from '../../src/terminal/width.js';

export interface ScreenCell {
  char: string;
  /** SGR attributes in a canonical form, e.g. "1;35" ('' for none). */
  sgr: string;
  link: string;
}

interface Attributes {
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  fg: number;
}

const plain = (): Attributes => ({ bold: false, dim: false, italic: false, underline: false, strike: false, fg: 0 });

function canonical(a: Attributes): string {
  const codes: number[] = [];
  if (a.bold) codes.push(1);
  if (a.dim) codes.push(2);
  if (a.italic) codes.push(3);
  if (a.underline) codes.push(4);
  if (a.strike) codes.push(9);
  if (a.fg) codes.push(a.fg);
  return codes.join(';');
}

export class TerminalScreen {
  width: number;
  readonly rows: ScreenCell[][] = [[]];
  /** Rows begun by an auto-wrap: the rest of the line above (what a re-wrapping terminal joins). */
  #continued: boolean[] = [false];
  row = 0;
  col = 0;
  #pendingWrap = false;
  #attributes = plain();
  #link = '';
  /** The lowest row the cursor has left by a line feed: rows above it are history. */
  #left = 0;
  /** Writes to rows the cursor had already left (must stay 0). */
  rewrites = 0;

  constructor(width: number) {
    this.width = width;
  }

  write(bytes: string): void {
    let i = 0;
    while (i < bytes.length) {
      const char = bytes[i] as string;
      if (char === '\r') {
        this.col = 0;
        this.#pendingWrap = false;
        i++;
      } else if (char === '\n') {
        this.#lineFeed();
        i++;
      } else if (char === '\u001b') {
        i = this.#escape(bytes, i);
      } else {
        const code = bytes.codePointAt(i) as number;
        if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) throw new Error(`control character U+${code.toString(16)} reached the terminal`);
        const text = String.fromCodePoint(code);
        this.#print(text);
        i += text.length;
      }
    }
  }

  /** The screen as plain text: rows without trailing spaces, no trailing empty rows. */
  text(): string {
    const lines = this.rows.map((row) => row.map((c) => c.char).join('').replace(/ +$/, ''));
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines.join('\n');
  }

  /** The screen as plain text with the rows an auto-wrap split joined again (tmux's `capture-pane -J`). */
  lines(): string {
    const lines: string[] = [];
    this.rows.forEach((row, r) => {
      const text = row.map((c) => c.char).join('');
      if (r > 0 && this.#continued[r]) lines[lines.length - 1] += text;
      else lines.push(text);
    });
    const trimmed = lines.map((line) => line.replace(/ +$/, ''));
    while (trimmed.length > 0 && trimmed.at(-1) === '') trimmed.pop();
    return trimmed.join('\n');
  }

  /** The screen with styles: each row as runs `{sgr|link}text`, for exact comparisons. */
  styled(): string {
    const lines = this.rows.map((row) => {
      let out = '';
      let key = '';
      for (const c of row) {
        const next = `{${c.sgr}|${c.link}}`;
        if (next !== key) out += next;
        key = next;
        out += c.char;
      }
      return out.replace(/(\{\|\} *)+$/, '').replace(/ +$/, '');
    });
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines.join('\n');
  }

  /** The rows the cursor has left, as styled text: what the scrollback holds for good. */
  history(): string[] {
    return this.styled().split('\n').slice(0, this.#left);
  }

  /** Cells of row `r` whose SGR includes `code`, as text. */
  textWith(r: number, code: string): string {
    return (this.rows[r] ?? [])
      .filter((c) => c.sgr.split(';').includes(code))
      .map((c) => c.char)
      .join('');
  }

  /**
   * The terminal is now `width` columns wide. `reflow`: each line (rows joined by auto-wraps) is
   * wrapped again at the new width, the cursor at the same place in its line, at the end of a
   * full row with a pending wrap when it was after a line's last cell (as tmux does); otherwise
   * each row is cut at the new edge and the cursor kept inside it (as xterm does).
   */
  resize(width: number, reflow: boolean): void {
    const before = this.width;
    this.width = width;
    if (!reflow) {
      for (const row of this.rows) {
        // A wide character whose second half is cut off goes with it.
        if (row.length > width && row[width]?.char === '') row.length = width - 1;
        row.length = Math.min(row.length, width);
      }
      if (this.#pendingWrap && width > before) this.col = before;
      this.col = Math.min(this.col, width - 1);
      this.#pendingWrap = false;
      return;
    }
    const lines: { cells: ScreenCell[]; first: number }[] = [];
    let cursor = 0;
    let cursorLine = 0;
    this.rows.forEach((row, r) => {
      if (r === 0 || !this.#continued[r]) lines.push({ cells: [], first: r });
      const line = lines.at(-1) as { cells: ScreenCell[]; first: number };
      if (r === this.row) {
        cursorLine = lines.length - 1;
        cursor = line.cells.length + this.col + (this.#pendingWrap ? 1 : 0);
      }
      line.cells.push(...row);
    });
    const leftLine = lines.findIndex((line, i) => (lines[i + 1]?.first ?? this.rows.length) > this.#left);
    this.rows.length = 0;
    this.#continued = [];
    lines.forEach((line, i) => {
      if (i === leftLine) this.#left = this.rows.length;
      const start = this.rows.length;
      let row: ScreenCell[] = [];
      this.rows.push(row);
      this.#continued.push(false);
      for (let k = 0; k < line.cells.length; k++) {
        const cell = line.cells[k] as ScreenCell;
        let span = 1;
        while ((line.cells[k + span] as ScreenCell | undefined)?.char === '') span++;
        if (cell.char !== '' && row.length + span > width) {
          row = [];
          this.rows.push(row);
          this.#continued.push(true);
        }
        row.push(cell);
      }
      if (i !== cursorLine) return;
      const r = cursor === 0 ? 0 : Math.floor((cursor - 1) / width);
      while (this.rows.length <= start + r) {
        this.rows.push([]);
        this.#continued.push(true);
      }
      this.row = start + r;
      this.col = cursor - r * width;
      this.#pendingWrap = this.col >= width;
      if (this.#pendingWrap) this.col = width - 1;
    });
    if (leftLine < 0) this.#left = this.rows.length;
  }

  #lineFeed(): void {
    this.row++;
    this.#left = Math.max(this.#left, this.row);
    this.col = 0;
    this.#pendingWrap = false;
    while (this.rows.length <= this.row) this.rows.push([]);
    this.#continued[this.row] = false;
  }

  #cells(): ScreenCell[] {
    while (this.rows.length <= this.row) this.rows.push([]);
    if (this.row < this.#left) this.rewrites++;
    return this.rows[this.row] as ScreenCell[];
  }

  #print(text: string): void {
    const width = codePointWidth(text);
    if (width === 0) {
      const row = this.#cells();
      const previous = row[Math.max(0, this.col - (this.#pendingWrap ? 0 : 1))];
      if (previous) previous.char += text;
      return;
    }
    if (this.#pendingWrap || this.col + width > this.width) {
      // Auto-wrap: the rest of the text continues on the next row (not a line feed of ours).
      this.row++;
      this.col = 0;
      this.#pendingWrap = false;
      this.#continued[this.row] = true;
    }
    const row = this.#cells();
    while (row.length < this.col) row.push({ char: ' ', sgr: '', link: '' });
    const cell = { char: text, sgr: canonical(this.#attributes), link: this.#link };
    row[this.col] = cell;
    for (let k = 1; k < width; k++) row[this.col + k] = { char: '', sgr: cell.sgr, link: cell.link };
    this.col += width;
    if (this.col >= this.width) {
      this.col = this.width - 1;
      this.#pendingWrap = true;
    }
  }

  #escape(bytes: string, i: number): number {
    const kind = bytes[i + 1];
    if (kind === '[') {
      const match = /^\u001b\[([0-9;]*)([A-Za-z])/.exec(bytes.slice(i, i + 32));
      if (!match) throw new Error(`unknown CSI sequence ${JSON.stringify(bytes.slice(i, i + 12))}`);
      const [all, params = '', final] = match;
      if (final === 'K' && (params === '' || params === '0')) {
        const row = this.#cells();
        row.length = Math.min(row.length, this.col);
      } else if (final === 'B') {
        this.row += Number(params || '1');
        this.#pendingWrap = false;
        while (this.rows.length <= this.row) this.rows.push([]);
      } else if (final === 'A') {
        this.row = Math.max(0, this.row - Number(params || '1'));
        this.#pendingWrap = false;
      } else if (final === 'm') {
        this.#sgr(params);
      } else {
        throw new Error(`unexpected CSI sequence ${JSON.stringify(all)}`);
      }
      return i + all.length;
    }
    if (kind === ']') {
      const end = bytes.indexOf('\u001b\\', i);
      const body = end < 0 ? '' : bytes.slice(i + 2, end);
      const match = /^8;[^;]*;(.*)$/s.exec(body);
      if (!match) throw new Error(`unexpected OSC sequence ${JSON.stringify(bytes.slice(i, i + 40))}`);
      const url = match[1] as string;
      if (/[^\x21-\x7e]/.test(url)) throw new Error(`hyperlink with unsafe characters: ${JSON.stringify(url)}`);
      this.#link = url;
      return end + 2;
    }
    throw new Error(`unexpected escape ${JSON.stringify(bytes.slice(i, i + 8))}`);
  }

  #sgr(params: string): void {
    for (const code of (params === '' ? '0' : params).split(';').map(Number)) {
      const a = this.#attributes;
      if (code === 0) this.#attributes = plain();
      else if (code === 1) a.bold = true;
      else if (code === 2) a.dim = true;
      else if (code === 3) a.italic = true;
      else if (code === 4) a.underline = true;
      else if (code === 9) a.strike = true;
      else if (code >= 30 && code <= 37) a.fg = code;
      else if (code === 39) a.fg = 0;
      else throw new Error(`unexpected SGR ${code}`);
    }
  }
}
