export interface SplitPiece {
  type: 'delta' | 'reasoning';
  text: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Some OpenAI-compatible servers (Ollama, LM Studio, vLLM with DeepSeek-R1 or Qwen3) send a model's
 * reasoning inside the content, as a leading `<think>…</think>` block, instead of `reasoning_content`.
 * This splits a streamed content into reasoning and story text, whatever way the tags are cut into
 * chunks. Only a block at the very start counts; text after it is the story.
 */
export class ThinkSplitter {
  private state: 'start' | 'thinking' | 'after' | 'content' = 'start';
  private buffer = '';

  push(text: string): SplitPiece[] {
    this.buffer += text;
    const out: SplitPiece[] = [];
    for (;;) {
      if (this.state === 'start') {
        const lead = this.buffer.trimStart();
        if (lead.startsWith(OPEN)) {
          this.buffer = lead.slice(OPEN.length);
          this.state = 'thinking';
          continue;
        }
        // Still possibly the start of "<think>": wait for more.
        if (OPEN.startsWith(lead)) return out;
        this.state = 'content';
        continue;
      }
      if (this.state === 'thinking') {
        const end = this.buffer.indexOf(CLOSE);
        if (end >= 0) {
          emit(out, 'reasoning', this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + CLOSE.length);
          this.state = 'after';
          continue;
        }
        // Keep back what could be the start of "</think>".
        const keep = partialSuffix(this.buffer, CLOSE);
        emit(out, 'reasoning', this.buffer.slice(0, this.buffer.length - keep));
        this.buffer = this.buffer.slice(this.buffer.length - keep);
        return out;
      }
      if (this.state === 'after') {
        // The blank lines between the block and the story are not story.
        this.buffer = this.buffer.replace(/^\s+/, '');
        if (!this.buffer) return out;
        this.state = 'content';
        continue;
      }
      emit(out, 'delta', this.buffer);
      this.buffer = '';
      return out;
    }
  }

  /** What is left when the stream ends (an unclosed block is all reasoning). */
  end(): SplitPiece[] {
    const out: SplitPiece[] = [];
    if (this.state === 'thinking') emit(out, 'reasoning', this.buffer);
    else if (this.state === 'start' || this.state === 'content') emit(out, 'delta', this.buffer);
    this.buffer = '';
    return out;
  }
}

function emit(out: SplitPiece[], type: SplitPiece['type'], text: string): void {
  if (text) out.push({ type, text });
}

// The length of the longest end of `text` that is a proper start of `tag`.
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
