/** A user renamed one of their custom models: what chose it by its old name follows. */
export class CustomModelRenamed {
  static readonly event = 'custom-model.renamed';
  constructor(
    readonly userID: string,
    readonly from: string,
    readonly to: string,
  ) {}
}

/** A user deleted one of their custom models: what chose it goes back to the platform default. */
export class CustomModelDeleted {
  static readonly event = 'custom-model.deleted';
  constructor(
    readonly userID: string,
    readonly name: string,
  ) {}
}
