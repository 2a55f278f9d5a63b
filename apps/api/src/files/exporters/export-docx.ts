import { AlignmentType, Document, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { fitWidth, picturesByLine, type ExportedPicture } from './pictures-by-line';

// Word takes these picture types; others (WebP) are left out of the document.
const DOCX_TYPES: Record<string, 'png' | 'jpg' | 'gif'> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' };

/** A Word document with one paragraph per line, each picture in a centred paragraph after its passage. */
export async function exportDocx(content: string, title: string, pictures: readonly ExportedPicture[] = []): Promise<Buffer> {
  const after = picturesByLine(content, pictures);
  const paragraphs = content.split(/\r?\n/).flatMap((line, i) => [
    new Paragraph({ children: [new TextRun({ text: line })] }),
    ...(after.get(i) ?? []).flatMap((p) => picture(p)),
  ]);
  const doc = new Document({
    title,
    creator: 'TaleLoom',
    styles: { default: { document: { run: { font: { ascii: 'Georgia', hAnsi: 'Georgia', eastAsia: 'SimSun' }, size: 24 } } } },
    sections: [{ children: paragraphs }],
  });
  return Packer.toBuffer(doc);
}

function picture(p: ExportedPicture): Paragraph[] {
  const type = DOCX_TYPES[p.contentType];
  if (!type) return [];
  // 400 px wide at most: about the text width of an A4 or Letter page.
  const transformation = fitWidth(p, 400);
  return [
    new Paragraph({
      alignment: AlignmentType.CENTER,
      children: [new ImageRun({ type, data: p.data, transformation, altText: { name: 'picture', description: p.alt, title: p.alt.slice(0, 100) } })],
    }),
  ];
}
