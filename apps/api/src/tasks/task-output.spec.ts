import { extractJson, JsonItemScanner, quoteIsInText, readGroups, readJudgements, TaskOutputInvalid } from './task-output';

const group = (title = 'Find the key') => ({ series_name: 'Keys', main_character: 'Mara', targets: [{ title, type: 'reality', score: 2, probability: 60 }] });

describe('reading model answers to task requests', () => {
  it('finds the JSON in a fence, in prose, or bare', () => {
    expect(extractJson('Sure:\n```json\n{"a":[1,2]}\n```\nEnjoy!')).toEqual({ a: [1, 2] });
    expect(extractJson('Here you go {"a":"x}y"} and more {"b":1}')).toEqual({ a: 'x}y' });
    expect(extractJson('[{"a":1}]')).toEqual([{ a: 1 }]);
    expect(() => extractJson('no json here')).toThrow(TaskOutputInvalid);
    expect(() => extractJson('{"groups": [{"series_name": "cut off')).toThrow(TaskOutputInvalid);
  });

  it('picks list items out of a stream as each one closes, whatever the chunking', () => {
    const answer = `Ideas:\n\`\`\`json\n${JSON.stringify({ groups: [group('A {b} "c"'), group('D [e]')] })}\n\`\`\``;
    for (const size of [1, 3, 17, answer.length]) {
      const scanner = new JsonItemScanner();
      const items: string[] = [];
      for (let i = 0; i < answer.length; i += size) items.push(...scanner.push(answer.slice(i, i + size)));
      expect(items.map((i) => JSON.parse(i).targets[0].title)).toEqual(['A {b} "c"', 'D [e]']);
    }
    const bare = new JsonItemScanner();
    expect(bare.push('[{"index":1},{"index":2}]')).toEqual(['{"index":1}', '{"index":2}']);
  });

  it('validates groups: coerces what models vary, drops what does not hold, fails when nothing does', () => {
    const answer = JSON.stringify({
      groups: [
        { series_name: ' Keys ', main_character: 'Mara', targets: [{ title: 'Find it', type: 'Emotional', score: '3', probability: 0.7 }] },
        { series_name: 'Empty', targets: [] },
        { series_name: '', targets: [{ title: 'x', type: 'reality', score: 1 }] },
        { series_name: 'Too many', targets: Array.from({ length: 6 }, (_, i) => ({ title: `t${i}`, type: '现实', score: 1 })) },
        { series_name: 'Bad score', targets: [{ title: 'y', type: 'reality', score: 7 }, { title: 'z', type: 'reality', score: 1 }] },
      ],
    });
    const groups = readGroups(answer, 5);
    expect(groups.map((g) => g.series_name)).toEqual(['Keys', 'Too many', 'Bad score']);
    expect(groups[0]).toEqual({ series_name: 'Keys', main_character: 'Mara', targets: [{ title: 'Find it', type: 'emotion', score: 3, probability: 70 }] });
    expect(groups[1].targets).toHaveLength(4);
    expect(groups[1].targets[0].type).toBe('reality');
    expect(groups[2].targets.map((t) => t.title)).toEqual(['z']);
    expect(readGroups(answer, 1)).toHaveLength(1);
    expect(() => readGroups('{"groups":[{"series_name":"x","targets":[]}]}', 3)).toThrow(TaskOutputInvalid);
  });

  it('reads judgements and insists on one for every target asked about', () => {
    const found = readJudgements('{"targets":[{"index":2,"completed":"yes","evidence":"q","probability":"80%"},{"index":1,"completed":false}]}', [1, 2]);
    expect(found.get(2)).toEqual({ index: 2, completed: true, evidence: 'q', reason: '', probability: 80 });
    expect(found.get(1)?.completed).toBe(false);
    expect(() => readJudgements('{"targets":[{"index":1,"completed":true}]}', [1, 2])).toThrow(/target\(s\) 2/);
    expect(() => readJudgements('{"targets":[{"index":1,"completed":"maybe"}]}', [1])).toThrow(TaskOutputInvalid);
  });

  it('finds a quote in the story despite changed quotes, spacing, case and an ellipsis', () => {
    const text = 'Mara said, “I found the key.”\nThen she   ran to the lighthouse and opened the door.';
    expect(quoteIsInText('"I found the key."', text)).toBe(true);
    expect(quoteIsInText('then she ran to the lighthouse', text)).toBe(true);
    expect(quoteIsInText('Then she ran … opened the door.', text)).toBe(true);
    expect(quoteIsInText('opened the door … Then she ran', text)).toBe(false);
    expect(quoteIsInText('She flew to the moon.', text)).toBe(false);
    expect(quoteIsInText('', text)).toBe(false);
    expect(quoteIsInText('她终于找到了钥匙', '那天晚上，她终于找到了钥匙。')).toBe(true);
  });
});
