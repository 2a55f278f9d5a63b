import type { TFunction } from 'i18next';
import { isApiClientError } from '../../../lib/api-client';
import { getErrorMessage } from '../../../lib/error-message';
import { i18n } from '../../../lib/i18n';

/** One problem of a task edit, as spec section 8 shows it: task number, field, failed, reason. */
export interface TaskFieldError {
  /** 1-based number of the target, or null for a field of the group. */
  task: number | null;
  /** The field's key (`title`, `type`, `score`, `series_name`, ...). */
  field: string;
  reason: string;
}

const TARGET_FIELD = /^targets\.(\d+)(?:\.(\w+))?$/;

// A key that is data from the server is checked at run time rather than typed.
const translate = (t: TFunction, key: string, options: Record<string, unknown> = {}) =>
  (t as unknown as (k: string, o?: object) => string)(key, options);

/**
 * The server's answer to a task edit, parsed into task number, field and reason, each translated
 * (rules the web knows get its own words; others keep the server's reason). Empty when the error
 * names no field: show `getErrorMessage` then.
 */
export function parseTaskErrors(error: unknown, t: TFunction): TaskFieldError[] {
  if (!isApiClientError(error) || !error.details?.length) return [];
  return error.details.map((detail) => {
    const target = TARGET_FIELD.exec(detail.field);
    const field = target ? (target[2] ?? '') : detail.field;
    const rule = detail.rules?.[0];
    const ruleKey = `tasks.rules.${rule}`;
    const reason = rule && i18n.exists(ruleKey) ? translate(t, ruleKey) : (detail.constraints[0] ?? getErrorMessage(error, t));
    return { task: target ? Number(target[1]) + 1 : null, field, reason };
  });
}

/** "Task 2 · Title: failed — must not be empty" in the current language. */
export function formatTaskError(e: TaskFieldError, t: TFunction): string {
  const fieldKey = `tasks.fields.${e.field}`;
  const field = e.field ? (i18n.exists(fieldKey) ? translate(t, fieldKey) : e.field) : '';
  if (e.task === null) return translate(t, 'tasks.groupFieldError', { field, reason: e.reason });
  return field
    ? translate(t, 'tasks.fieldError', { task: e.task, field, reason: e.reason })
    : translate(t, 'tasks.taskError', { task: e.task, reason: e.reason });
}
