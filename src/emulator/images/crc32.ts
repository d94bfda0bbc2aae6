/**
 * CRC-32 as PNG chunks need it (ISO 3309 / ITU-T V.42, the polynomial 0xEDB88320 reflected; PNG
 * spec, section 5.5), the classic byte-at-a-time table version. `zlib.crc32` only arrived in Node
 * 20.15 and 22.2; a few lines here keep the PNG writer free of that, and the tests check the two
 * agree where both exist.
 */

/** The 256 remainders, built once on first use. */
let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (table) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/**
 * The CRC-32 of `bytes`, continuing from `previous` (the CRC of the bytes before them) so a chunk's
 * type and data can be fed separately.
 *
 * @example crc32(new TextEncoder().encode('123456789')) === 0xcbf43926
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  const t = crcTable();
  let c = ~previous >>> 0;
  for (let i = 0; i < bytes.length; i += 1) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
