/** A localStorage stand-in for the unit tests of what is kept on the device (upload records, recent uploads). */
export class MemoryStorage {
  readonly data = new Map<string, string>();

  getItem(key: string): string | null {
    return this.data.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.data.set(key, value);
  }
}
