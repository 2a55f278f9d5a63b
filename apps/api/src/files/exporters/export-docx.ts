import type { Paragraph } from 'docx';
import { formatName, pictureNotes, type PictureNotes } from './picture-notes';
import { fitWidth, picturesByLine, type ExportedPicture } from './pictures-by-line';

// Word takes these picture types. No WebP decoder is in the dependency tree (pngjs reads PNG only),
// so any other type is stated in the document instead of dropped in silence.
const DOCX_TYPES: Record<string, 'png' | 'jpg' | 'gif'> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' };

// The HTML export's caption look: small and grey.
const NOTE_RUN = { size: 18, color: '6B7280', italics: true } as const;

/** A Word document with one paragraph per line, each picture in a centred paragraph after its passage. */
export async function exportDocx(content: string, title: string, pictures: readonly ExportedPicture[] = []): Promise<Buffer> {
  // Loaded on the first export, not at start-up (about 60 ms of every start otherwise).
  const docx = await import('docx');
  const { Document, Packer, Paragraph, TextRun } = docx;
  const after = picturesByLine(content, pictures);
  const notes = pictureNotes(content);
  const paragraphs = content.split(/\r?\n/).flatMap((line, i) => [
    new Paragraph({ children: [new TextRun({ text: line })] }),
    ...(after.get(i) ?? []).flatMap((p) => picture(docx, p, notes)),
  ]);
  const doc = new Document({
    title,
    creator: 'TaleLoom',
    styles: { default: { document: { run: { font: { ascii: 'Georgia', hAnsi: 'Georgia', eastAsia: 'SimSun' }, size: 24 } } } },
    sections: [{ children: paragraphs }],
  });
  return Packer.toBuffer(doc);
}

type DocxModule = typeof import('docx');

function picture(docx: DocxModule, p: ExportedPicture, notes: PictureNotes): Paragraph[] {
  const { AlignmentType, ImageRun, Paragraph } = docx;
  const type = DOCX_TYPES[p.contentType];
  if (!type) return [note(docx, notes.omitted(formatName(p.contentType)))];
  // 400 px wide at most: about the text width of an A4 or Letter page.
  const transformation = fitWidth(p, 400);
  return [
    new Paragraph({
      alignment: AlignmentType.CENTER,
      // A demo picture's caption stays on its page.
      keepNext: p.demo,
      children: [new ImageRun({ type, data: p.data, transformation, altText: { name: 'picture', description: p.alt, title: p.alt.slice(0, 100) } })],
    }),
    ...(p.demo ? [note(docx, notes.demo)] : []),
  ];
}

function note({ AlignmentType, Paragraph, TextRun }: DocxModule, text: string): Paragraph {
  return new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ text, ...NOTE_RUN })] });
}
