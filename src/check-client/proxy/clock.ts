/** The clock shared by the proxy and the application log: strictly increasing. */
export class Clock {
  private value = 0;
  /** The next instant. */
  tick(): number {
    return ++this.value;
  }
}
