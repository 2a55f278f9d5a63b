import type { StreamEvent, TaskGroupDraft, TaskTarget, TaskVerdict } from '@taleloom/contracts';
import {
  JsonItemScanner,
  normaliseForQuotes,
  quoteIsInText,
  readGroup,
  readGroups,
  readJudgement,
  readJudgements,
  type ModelJudgement,
} from './task-output';

/** Reads one streamed answer: shows items as they complete, then reads the whole answer (or throws TaskOutputInvalid). */
export interface AnswerReader<T> {
  onText(text: string): void;
  finish(answer: string): T;
}

const parse = (json: string): unknown => {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
};

/** Suggested groups: each is sent as soon as the model closed it. */
export class SuggestionReader implements AnswerReader<TaskGroupDraft[]> {
  private readonly scanner = new JsonItemScanner();
  private shown = 0;

  constructor(
    private readonly batch: string,
    private readonly count: number,
    private readonly emit: (event: StreamEvent) => void,
  ) {}

  onText(text: string): void {
    for (const item of this.scanner.push(text)) {
      const group = readGroup(parse(item));
      if (group && this.shown < this.count) this.emit({ type: 'task_suggestion', batch: this.batch, index: this.shown++, group });
    }
  }

  finish(answer: string): TaskGroupDraft[] {
    return readGroups(answer, this.count);
  }
}

export interface OpenTarget {
  index: number;
  target: TaskTarget;
}

/**
 * A judgement of the open targets (numbered 1.. in the prompt). A completion counts only when its
 * quote is found in the story; one that is not is reported `unproven` and the target stays open.
 */
export class VerdictReader implements AnswerReader<TaskVerdict[]> {
  private readonly scanner = new JsonItemScanner();
  private readonly shown = new Set<number>();
  private normalised: string | null = null;

  constructor(
    private readonly open: OpenTarget[],
    private readonly storyText: string,
    private readonly emit: (event: StreamEvent) => void,
  ) {}

  onText(text: string): void {
    for (const item of this.scanner.push(text)) {
      const judgement = readJudgement(parse(item));
      if (!judgement || judgement.index > this.open.length || this.shown.has(judgement.index)) continue;
      this.shown.add(judgement.index);
      this.emit({ type: 'task_verdict', verdict: this.verdict(judgement) });
    }
  }

  finish(answer: string): TaskVerdict[] {
    const found = readJudgements(answer, this.open.map((_, i) => i + 1));
    return [...found.values()].sort((a, b) => a.index - b.index).map((j) => this.verdict(j));
  }

  private verdict(j: ModelJudgement): TaskVerdict {
    const { index, target } = this.open[j.index - 1];
    // A novel-length story is normalised once, on the first completion to check.
    if (j.completed && this.normalised === null) this.normalised = normaliseForQuotes(this.storyText);
    const proven = j.completed && quoteIsInText(j.evidence, this.storyText, this.normalised ?? undefined);
    return {
      index,
      target_id: target.id,
      completed: proven,
      evidence: j.completed ? j.evidence : '',
      reason: j.reason,
      probability: proven ? 100 : j.probability,
      unproven: j.completed && !proven,
    };
  }
}
