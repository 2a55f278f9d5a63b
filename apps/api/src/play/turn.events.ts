/**
 * A turn was accepted into its story's text (by POST /accept, or by the send that followed it):
 * `appended` is what was appended, exactly, at the end of `text`, the text of branch `branchId`.
 * Pictures illustrate it.
 */
export class TurnAccepted {
  static readonly event = 'turn.accepted';
  constructor(
    readonly userID: string,
    readonly storyId: string,
    readonly branchId: string,
    readonly text: string,
    readonly appended: string,
  ) {}
}
