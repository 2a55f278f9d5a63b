import { Document, Packer, Paragraph, TextRun } from 'docx';

/** A Word document with one paragraph per line. */
export async function exportDocx(content: string, title: string): Promise<Buffer> {
  const paragraphs = content.split(/\r?\n/).map((line) => new Paragraph({ children: [new TextRun({ text: line })] }));
  const doc = new Document({
    title,
    creator: 'TaleLoom',
    styles: { default: { document: { run: { font: { ascii: 'Georgia', hAnsi: 'Georgia', eastAsia: 'SimSun' }, size: 24 } } } },
    sections: [{ children: paragraphs }],
  });
  return Packer.toBuffer(doc);
}
