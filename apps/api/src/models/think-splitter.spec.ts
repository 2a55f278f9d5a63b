import { ThinkSplitter, type SplitPiece } from './think-splitter';

// Feeds the pieces one by one and joins what comes out by type.
function split(pieces: string[]): { reasoning: string; delta: string; order: SplitPiece['type'][] } {
  const s = new ThinkSplitter();
  const out = [...pieces.flatMap((p) => s.push(p)), ...s.end()];
  const join = (type: SplitPiece['type']) => out.filter((p) => p.type === type).map((p) => p.text).join('');
  return { reasoning: join('reasoning'), delta: join('delta'), order: [...new Set(out.map((p) => p.type))] };
}

describe('ThinkSplitter', () => {
  it('moves a leading <think> block to reasoning, however the tags are cut', () => {
    const text = '<think>Plan: the ferry is late.</think>\n\nThe horn sounded.';
    const expected = { reasoning: 'Plan: the ferry is late.', delta: 'The horn sounded.', order: ['reasoning', 'delta'] };
    expect(split([text])).toEqual(expected);
    expect(split([...text])).toEqual(expected);
    expect(split(['  <thi', 'nk>Plan: the ferry', ' is late.</th', 'ink>', '\n', '\nThe horn sounded.'])).toEqual(expected);
  });

  it('leaves text without a leading block alone, tags later in it included', () => {
    expect(split(['The ', 'horn <think>x</think> sounded.'])).toEqual({ reasoning: '', delta: 'The horn <think>x</think> sounded.', order: ['delta'] });
    expect(split(['<', 'b>bold</b>'])).toEqual({ reasoning: '', delta: '<b>bold</b>', order: ['delta'] });
  });

  it('treats an unclosed block as reasoning and keeps "<" characters inside it', () => {
    expect(split(['<think>a < b </t', 'hin'])).toEqual({ reasoning: 'a < b </thin', delta: '', order: ['reasoning'] });
  });
});
