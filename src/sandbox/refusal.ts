// The sandbox's one refusal: thrown wherever a request, a call or a change cannot be done (an operation, a money
// operation, the control API, the in-process methods), carrying the status the register gives it. Each front turns
// it into an answer in one place: the answer source (source.ts) for the API, `refusing` for the control API; a
// caller of the in-process methods catches it as the RangeError it is.

export class SandboxRefusal extends RangeError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message); // named RangeError still: what the in-process methods document they throw
  }
}

/** Refuses with `status`, `why` saying which refusal it is. */
export function refuse(status: number, why: string): never {
  throw new SandboxRefusal(status, why);
}
