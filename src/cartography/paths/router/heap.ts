/**
 * A binary min-heap of search states over typed arrays, ordered by two keys (the first, then the
 * second): floor changes then time for minimize_floor_changes, 0 then time otherwise. Entries are
 * never updated in place: a state whose cost improves is pushed again and its stale entries are
 * skipped when popped (the search keeps which states are settled). Grown by doubling, kept and
 * reused across searches.
 */
export class StateHeap {
  private states: Int32Array;
  private first: Float64Array;
  private second: Float64Array;
  size = 0;

  constructor(capacity = 1024) {
    this.states = new Int32Array(capacity);
    this.first = new Float64Array(capacity);
    this.second = new Float64Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(state: number, first: number, second: number): void {
    if (this.size === this.states.length) this.grow();
    const states = this.states;
    const k1 = this.first;
    const k2 = this.second;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p1 = k1[parent];
      if (p1 < first || (p1 === first && k2[parent] <= second)) break;
      states[i] = states[parent];
      k1[i] = p1;
      k2[i] = k2[parent];
      i = parent;
    }
    states[i] = state;
    k1[i] = first;
    k2[i] = second;
  }

  /** The state of least keys; the heap must not be empty. */
  pop(): number {
    const states = this.states;
    const k1 = this.first;
    const k2 = this.second;
    const top = states[0];
    const size = --this.size;
    if (size > 0) {
      const state = states[size];
      const first = k1[size];
      const second = k2[size];
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= size) break;
        const right = child + 1;
        if (right < size && (k1[right] < k1[child] || (k1[right] === k1[child] && k2[right] < k2[child]))) child = right;
        const c1 = k1[child];
        if (first < c1 || (first === c1 && second <= k2[child])) break;
        states[i] = states[child];
        k1[i] = c1;
        k2[i] = k2[child];
        i = child;
      }
      states[i] = state;
      k1[i] = first;
      k2[i] = second;
    }
    return top;
  }

  private grow(): void {
    const capacity = this.states.length * 2;
    const states = new Int32Array(capacity);
    const first = new Float64Array(capacity);
    const second = new Float64Array(capacity);
    states.set(this.states);
    first.set(this.first);
    second.set(this.second);
    this.states = states;
    this.first = first;
    this.second = second;
  }
}
