// A refusal of a money operation (a deposit the control API simulates, a withdrawal to settle): a RangeError, as
// every refusal of the sandbox's in-process methods is, carrying the status the control API answers with it.

export class MoneyRefusal extends RangeError {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = "MoneyRefusal";
  }
}
