/** A live stream as its organization's feed sees it. */
export interface FedStream<Item> {
  readonly open: boolean;
  /** Where the stream's next read must start (a seq, or a change time). */
  readonly readFrom: number;
  /** A read from at most `readFrom`, in order, complete up to `upTo`. */
  offer(items: Item[], upTo: number): void;
}

/** One read of the source of truth, from `since`: the items, how far it is complete, and whether more wait. */
export interface FeedRead<Item> {
  items: Item[];
  upTo: number;
  more: boolean;
}

/**
 * The streams of one organization on this instance, fed by one read per wake (not one per
 * stream): from the oldest position among them, each stream keeping what is its own. Wakes
 * during a read cause one more read after it, not one per wake.
 */
export class OrganizationFeed<Item, Stream extends FedStream<Item>> {
  readonly streams = new Set<Stream>();
  private reading = false;
  private again = false;

  constructor(
    private readonly read: (since: number) => Promise<FeedRead<Item>>,
    /** Nothing has moved after a failed read: the next wake reads again from the same place. */
    private readonly onReadError: (error: unknown) => void,
  ) {}

  wake(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        const streams = [...this.streams].filter((stream) => stream.open);
        if (streams.length === 0) return;
        const since = Math.min(...streams.map((stream) => stream.readFrom));
        const { items, upTo, more } = await this.read(since);
        if (more) this.again = true;
        for (const stream of this.streams) {
          if (!stream.open) continue;
          // A stream that joined during the read, from further back than it looked: the next read covers it.
          if (stream.readFrom < since) this.again = true;
          else stream.offer(items, upTo);
        }
      } while (this.again);
    } catch (error) {
      this.onReadError(error);
    } finally {
      this.reading = false;
    }
  }
}
