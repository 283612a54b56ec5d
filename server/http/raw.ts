/** A handler's answer that is not a JSON envelope (a served file): sent as is, with its headers. */
export class RawResponse {
  constructor(
    readonly body: Buffer,
    readonly headers: Readonly<Record<string, string>>,
    readonly status: number = 200,
  ) {}
}
