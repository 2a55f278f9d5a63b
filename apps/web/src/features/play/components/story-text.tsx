import { placePictures, rebaseText, type StoryPicture } from '@taleloom/contracts';
import { Button, Input, Space } from 'antd';
import { Fragment, useEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { passageIconVars } from './passage-icons';

// A novel-length text is shown from its end; earlier parts load on request (fast to open).
const TAIL_CHARS = 30_000;
const MORE_CHARS = 100_000;

/**
 * The start of the first whole line from `at` on (0 at or before the text's start; `at` itself inside a
 * line with no break after it): the editor opens on whole lines.
 */
function lineStart(text: string, at: number): number {
  if (at <= 0) return 0;
  if (text[at - 1] === '\n') return at;
  const next = text.indexOf('\n', at);
  return next < 0 ? at : next + 1;
}

type Range = { from: number; to: number };

/** One line of the shown text, with the pictures that sit before it. */
interface Passage {
  from: number;
  text: string;
  pictures: StoryPicture[];
}

// The shown part of the text (from `offset` on) cut into lines; each picture goes before the line
// its passage starts on (earlier passages that are not shown go to the top).
function passagesOf(text: string, offset: number, pictures: readonly StoryPicture[]): Passage[] {
  const before = new Map<number, StoryPicture[]>();
  for (const placed of placePictures(text, pictures)) {
    if (placed.to <= offset && offset > 0) continue;
    const at = Math.max(placed.from, offset);
    before.set(at, [...(before.get(at) ?? []), placed.picture]);
  }
  const passages: Passage[] = [];
  let from = offset;
  for (const line of text.slice(offset).split('\n')) {
    passages.push({ from, text: line, pictures: before.get(from) ?? [] });
    from += line.length + 1;
  }
  return passages;
}

// Lines grouped from one illustrated passage to the next: a group starts with its pictures and holds
// them (flow-root), so a picture stays beside its own passage instead of stacking under earlier ones.
function groupsOf(passages: Passage[]): Passage[][] {
  const groups: Passage[][] = [];
  for (const p of passages) {
    if (p.pictures.length || groups.length === 0) groups.push([p]);
    else groups.at(-1)!.push(p);
  }
  return groups;
}

/**
 * The main text, or in edit mode a text area with confirm and back. With pictures, each sits beside
 * (on a phone: above) the passage it shows; with `onIllustrate`, every line has a camera button; with
 * `onBranchFrom`, every line but the last has a "branch from here" button (the new line keeps the
 * text up to the end of that line).
 */
export function StoryText(props: {
  text: string;
  editing: boolean;
  saving: boolean;
  onConfirm: (text: string) => void;
  onBack: () => void;
  children?: ReactNode;
  pictures?: readonly StoryPicture[];
  renderPicture?: (picture: StoryPicture) => ReactNode;
  onIllustrate?: (range: Range) => void;
  onBranchFrom?: (at: number) => void;
  /** The shown text with the turn card (the play screen follows its growth). */
  blockRef?: Ref<HTMLDivElement>;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(TAIL_CHARS);
  const [draft, setDraft] = useState(props.text);
  const hidden = Math.max(0, props.text.length - shown);
  const { pictures, onIllustrate, onBranchFrom, renderPicture } = props;
  const groups = useMemo(
    () => (pictures?.length || onIllustrate || onBranchFrom ? groupsOf(passagesOf(props.text, hidden, pictures ?? [])) : null),
    [props.text, hidden, pictures, onIllustrate, onBranchFrom],
  );
  const last = groups?.at(-1)?.at(-1);
  // Asked once, not once per passage (hundreds of them).
  const illustrateLabel = t('play.pictures.illustrate');
  const branchLabel = t('play.branchFrom');

  // The editor holds the text from `editFrom` on (what was shown when editing began, which the user
  // widens like the reading view): a phone does not lay out a million characters on every keystroke.
  // `base` is the whole text the draft was made from.
  const [editFrom, setEditFrom] = useState(0);
  const base = useRef(props.text);
  useEffect(() => {
    if (!props.editing) return;
    const from = lineStart(props.text, props.text.length - shown);
    setEditFrom(from);
    setDraft(props.text.slice(from));
    base.current = props.text;
    // Only when edit mode starts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.editing]);
  // The text changed under the open editor (read again when a save found it changed elsewhere, such as
  // a turn accepted on another device): the user's change is carried onto it when the two do not touch,
  // so saving again keeps both; otherwise the draft stays as the user wrote it.
  useEffect(() => {
    if (!props.editing || props.text === base.current) return;
    const from = base.current;
    const head = from.slice(0, editFrom);
    const mine = head + draft;
    const carried = rebaseText(from, props.text, mine) ?? mine;
    base.current = props.text;
    // The part before the editor stays out of it while it is unchanged.
    const keep = carried.startsWith(head) && props.text.startsWith(head) ? editFrom : 0;
    setEditFrom(keep);
    setDraft(carried.slice(keep));
    // Only when the text changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.text, props.editing]);

  if (props.editing) {
    return (
      <div className="tl-play-text tl-play-text--editing">
        {editFrom > 0 ? (
          <Button
            type="link"
            onClick={() => {
              const wanted = Math.max(0, editFrom - MORE_CHARS);
              const whole = lineStart(base.current, wanted);
              // A line longer than the step is taken from inside it.
              const from = whole < editFrom ? whole : wanted;
              setDraft((d) => base.current.slice(from, editFrom) + d);
              setEditFrom(from);
            }}
            data-testid="edit-earlier"
          >
            {t('play.showEarlier', { count: editFrom })}
          </Button>
        ) : null}
        <Input.TextArea
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          autoSize={{ minRows: 10, maxRows: 30 }}
          aria-label={t('play.editText')}
          data-testid="edit-textarea"
        />
        <Space className="tl-play-text__edit-actions">
          <Button onClick={props.onBack} data-testid="edit-back">
            {t('play.back')}
          </Button>
          <Button type="primary" loading={props.saving} onClick={() => props.onConfirm(base.current.slice(0, editFrom) + draft)} data-testid="edit-confirm">
            {t('play.confirm')}
          </Button>
        </Space>
      </div>
    );
  }
  return (
    <div className="tl-play-text" ref={props.blockRef}>
      {hidden > 0 ? (
        <Button type="link" onClick={() => setShown((n) => n + MORE_CHARS)} data-testid="show-earlier">
          {t('play.showEarlier', { count: hidden })}
        </Button>
      ) : null}
      <div className="tl-story-text" data-testid="play-text" style={groups ? passageIconVars : undefined}>
        {groups
          ? groups.map((group) => (
              <div className="tl-passage-group" key={group[0].from}>
                {group.map((p) => (
                  <Fragment key={p.from}>
                    {p.pictures.map((picture) => (
                      <Fragment key={picture.id}>{renderPicture?.(picture)}</Fragment>
                    ))}
                    <span className="tl-passage">
                      {p.text}
                      {(onIllustrate || (onBranchFrom && p !== last)) && p.text.trim() ? (
                        <span className="tl-passage__tools">
                          {onIllustrate ? (
                            <button
                              type="button"
                              className="tl-passage__tool tl-passage__tool--camera"
                              aria-label={illustrateLabel}
                              title={illustrateLabel}
                              onClick={() => onIllustrate({ from: p.from, to: p.from + p.text.length })}
                              data-testid="illustrate-passage"
                            />
                          ) : null}
                          {onBranchFrom && p !== last ? (
                            <button
                              type="button"
                              className="tl-passage__tool tl-passage__tool--branches"
                              aria-label={branchLabel}
                              title={branchLabel}
                              onClick={() => onBranchFrom(p.from + p.text.length)}
                              data-testid="branch-from-passage"
                            />
                          ) : null}
                        </span>
                      ) : null}
                      {p !== last ? '\n' : null}
                    </span>
                  </Fragment>
                ))}
              </div>
            ))
          : hidden > 0
            ? props.text.slice(hidden)
            : props.text}
      </div>
      {props.children}
    </div>
  );
}
