import { ErrorCode } from '@taleloom/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClientError } from '../../../lib/api-client';
import { changeLanguage, i18n } from '../../../lib/i18n';
import { blankLike } from './blank-like';
import { formatTaskError, parseTaskErrors } from './task-errors';

const validation = new ApiClientError(400, ErrorCode.VALIDATION_FAILED, 'Some fields are invalid', [
  { field: 'targets.2.title', constraints: ['title should not be empty'], rules: ['isNotEmpty'] },
  { field: 'targets.0.score', constraints: ['score must be one of the following values: 1, 2, 3'], rules: ['isIn'] },
  { field: 'series_name', constraints: ['series_name must be shorter than or equal to 100 characters'], rules: ['maxLength'] },
  { field: 'targets.1.title', constraints: ['a reason the web does not know'], rules: ['somethingNew'] },
]);

describe('task edit errors: task number, field, failed, reason', () => {
  afterEach(() => changeLanguage('en'));

  it('parses the server details and words them in English', () => {
    const t = i18n.t.bind(i18n);
    const parsed = parseTaskErrors(validation, t);
    expect(parsed.map((e) => [e.task, e.field])).toEqual([[3, 'title'], [1, 'score'], [null, 'series_name'], [2, 'title']]);
    expect(parsed.map((e) => formatTaskError(e, t))).toEqual([
      'Task 3 · Title: failed, it must not be empty',
      'Task 1 · Score: failed, choose one of the options',
      'Group name: failed, it is too long',
      'Task 2 · Title: failed, a reason the web does not know',
    ]);
  });

  it('words them in Chinese, and a completed task names its number', async () => {
    await changeLanguage('zh-CN');
    const t = i18n.t.bind(i18n);
    expect(parseTaskErrors(validation, t).slice(0, 2).map((e) => formatTaskError(e, t))).toEqual(['任务 3 · 标题：失败，不能为空', '任务 1 · 分值：失败，请从选项中选择']);
    const completed = new ApiClientError(409, ErrorCode.TASK_COMPLETED, '', [{ field: 'targets.0', constraints: ['completed tasks cannot be edited or deleted'], rules: ['completed'] }], { task: 1 });
    expect(parseTaskErrors(completed, t).map((e) => formatTaskError(e, t))).toEqual(['任务 1：失败，已完成的任务不能编辑或删除']);
  });

  it('gives nothing for errors without fields (the caller shows the translated code)', () => {
    const t = i18n.t.bind(i18n);
    expect(parseTaskErrors(new ApiClientError(400, ErrorCode.TASK_TARGET_COUNT, ''), t)).toEqual([]);
    expect(parseTaskErrors(new Error('x'), t)).toEqual([]);
  });

  it('makes a new target in the shape of the first with blank or zero values', () => {
    const first = { id: 'abc', title: 'Find it', type: 'reality', score: 2, completed: true, complete_turn: 3, original_probability: null, evidence: 'q' };
    expect(blankLike(first)).toEqual({ id: '', title: '', type: '', score: 0, completed: false, complete_turn: 0, original_probability: null, evidence: '' });
  });
});
