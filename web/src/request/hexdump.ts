/** Bytes per line of a hex dump. */
const WIDTH = 16;

const printable = (byte: number) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.');

/**
 * The first `limit` bytes of `bytes` as hex dump lines in the `hexdump -C` layout: the offset,
 * sixteen bytes in hex (a gap after eight), and the printable ASCII between bars.
 *
 * @example
 *   hexDump(new TextEncoder().encode('Hi\n'))
 *   // ['00000000  48 69 0a                                          |Hi.|']
 */
export function hexDump(bytes: Uint8Array, limit = bytes.length): string[] {
  const end = Math.min(limit, bytes.length);
  const lines: string[] = [];
  for (let offset = 0; offset < end; offset += WIDTH) {
    const row = bytes.subarray(offset, Math.min(offset + WIDTH, end));
    let hex = '';
    let ascii = '';
    for (let i = 0; i < WIDTH; i++) {
      hex += i < row.length ? row[i].toString(16).padStart(2, '0') + ' ' : '   ';
      if (i === 7) hex += ' ';
      if (i < row.length) ascii += printable(row[i]);
    }
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex} |${ascii}|`);
  }
  return lines;
}
