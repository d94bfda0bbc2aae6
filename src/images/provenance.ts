/**
 * Where an image came from, kept inside the file (issue 25): as an XMP packet, the standard
 * place exiftool, image viewers and DAMs read (PNG `iTXt` "XML:com.adobe.xmp", a JPEG APP1
 * segment, a WebP `XMP ` chunk; images/metadata-writer.ts puts it there). The prompt also goes
 * in `dc:description` and the tool in `xmp:CreatorTool`, which every viewer shows; the rest in
 * svc's own namespace (exiftool shows it as `XMP-svc:Prompt`, `XMP-svc:Seed`…). Never the key,
 * never the base URL. Pure: text in, text out.
 */

export interface Provenance {
  prompt: string;
  revisedPrompt?: string | undefined;
  negativePrompt?: string | undefined;
  model: string;
  /** The seed sent, or the one the service reported. */
  seed?: number | undefined;
  aspectRatio?: string | undefined;
  format: string;
  /** ISO 8601, when the image was made. */
  createdAt: string;
  /** The svc that made it. */
  svcVersion: string;
}

/** svc's XMP namespace: a name, never fetched. */
export const SVC_XMP_NAMESPACE = 'https://svc.invalid/ns/xmp/1.0/';

/** The standard XMP packet id (the same in every XMP packet). */
const PACKET_ID = 'W5M0MpCehiHzreSzNTczkc9d';
const PACKET_START = `<?xpacket begin="\uFEFF" id="${PACKET_ID}"?>`;
const PACKET_END = '<?xpacket end="w"?>';

/** The svc fields, in the order they are written and shown. */
const FIELDS: ReadonlyArray<[keyof Provenance, string]> = [
  ['prompt', 'Prompt'],
  ['revisedPrompt', 'RevisedPrompt'],
  ['negativePrompt', 'NegativePrompt'],
  ['model', 'Model'],
  ['seed', 'Seed'],
  ['aspectRatio', 'AspectRatio'],
  ['format', 'Format'],
  ['createdAt', 'CreateDate'],
  ['svcVersion', 'Version'],
];

/** Text as XML character data: markup escaped; characters XML 1.0 cannot hold become U+FFFD. */
function xmlText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity]!;
  });
}

/** The XMP document (without the packet wrapper and padding). */
function xmpBody(record: Provenance): string {
  const own = FIELDS.filter(([key]) => record[key] !== undefined && record[key] !== '').map(([key, name]) => `   <svc:${name}>${xmlText(String(record[key]))}</svc:${name}>`);
  return [
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:svc="${SVC_XMP_NAMESPACE}">`,
    `   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(record.prompt)}</rdf:li></rdf:Alt></dc:description>`,
    `   <xmp:CreatorTool>svc ${xmlText(record.svcVersion)}</xmp:CreatorTool>`,
    `   <xmp:CreateDate>${xmlText(record.createdAt)}</xmp:CreateDate>`,
    ...own,
    '  </rdf:Description>',
    ' </rdf:RDF>',
    '</x:xmpmeta>',
  ].join('\n');
}

/**
 * The XMP packet for `record`, as UTF-8. With `size`, padded with spaces (XMP's own provision for
 * editing in place) to exactly that many bytes; undefined when it does not fit.
 */
export function xmpPacket(record: Provenance | undefined, size?: number): Buffer | undefined {
  const body = record ? xmpBody(record) : '<x:xmpmeta xmlns:x="adobe:ns:meta/"/>';
  const bare = Buffer.from(`${PACKET_START}\n${body}\n`, 'utf8');
  const end = Buffer.from(PACKET_END, 'latin1');
  if (size === undefined) return Buffer.concat([bare, end]);
  const padding = size - bare.length - end.length;
  if (padding < 1) return undefined;
  // Lines of spaces, as XMP writers pad: a newline every 100 bytes keeps the file readable.
  const pad = Buffer.alloc(padding, 0x20);
  for (let at = 99; at < padding - 1; at += 100) pad[at] = 0x0a;
  pad[padding - 1] = 0x0a;
  return Buffer.concat([bare, pad, end]);
}

/** The svc record of an XMP packet, or undefined when it holds none (another tool's XMP). */
export function parseXmp(packet: string): Provenance | undefined {
  if (!packet.includes(SVC_XMP_NAMESPACE)) return undefined;
  const values: Partial<Record<keyof Provenance, string>> = {};
  for (const [key, name] of FIELDS) {
    const match = new RegExp(`<svc:${name}>([\\s\\S]*?)</svc:${name}>`).exec(packet);
    if (match) values[key] = unescapeXml(match[1]!);
  }
  if (values.prompt === undefined || values.model === undefined) return undefined;
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  return {
    prompt: values.prompt,
    revisedPrompt: values.revisedPrompt,
    negativePrompt: values.negativePrompt,
    model: values.model,
    seed: seed !== undefined && Number.isSafeInteger(seed) ? seed : undefined,
    aspectRatio: values.aspectRatio,
    format: values.format ?? '',
    createdAt: values.createdAt ?? '',
    svcVersion: values.svcVersion ?? '',
  };
}
