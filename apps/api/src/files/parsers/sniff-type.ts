/** What the first bytes of a file say it is. */
export type SniffedType = 'png' | 'zip' | 'rtf' | 'binary' | 'text';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// Signatures that are also ordinary text ("MZ is a rapper", "#!"): binary only with a NUL byte near the start.
const TEXT_LIKE_SIGNATURES: Buffer[] = [
  Buffer.from('MZ'), // Windows executables
  Buffer.from('#!'), // scripts
  Buffer.from('%PDF'),
  Buffer.from('GIF8'),
  Buffer.from('Rar!'),
];

// Signatures of common non-text files, so a renamed executable or archive is refused at once.
const BINARY_SIGNATURES: Buffer[] = [
  Buffer.from([0x7f, 0x45, 0x4c, 0x46]), // ELF
  Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), // Mach-O 64
  Buffer.from([0xce, 0xfa, 0xed, 0xfe]), // Mach-O 32
  Buffer.from([0xca, 0xfe, 0xba, 0xbe]), // Mach-O fat, Java class
  Buffer.from([0xff, 0xd8, 0xff]), // JPEG
  Buffer.from([0x1f, 0x8b]), // gzip
  Buffer.from([0x37, 0x7a, 0xbc, 0xaf]), // 7z
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), // old Office (.doc)
  Buffer.from('\0asm'), // WebAssembly
];

/** Decides the type by content (magic bytes); the file name only narrows what is accepted. */
export function sniffType(buf: Buffer): SniffedType {
  if (buf.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04) return 'zip';
  if (buf.subarray(0, 5).toString('latin1') === '{\\rtf') return 'rtf';
  if (BINARY_SIGNATURES.some((sig) => buf.subarray(0, sig.length).equals(sig))) return 'binary';
  const startsLikeText = TEXT_LIKE_SIGNATURES.some((sig) => buf.subarray(0, sig.length).equals(sig));
  if (startsLikeText && buf.subarray(0, 4096).includes(0)) return 'binary';
  return 'text';
}
