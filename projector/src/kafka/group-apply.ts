interface Waiting<Batch, Result> {
  batch: Batch;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * Batches handed over at about the same time, applied together (as the log's appends are
 * committed together): a batch waits for a turn of the event loop, or for the transaction in
 * flight to end, then goes with every batch waiting, at most one per partition. Each caller gets
 * its own batch's result, or the error that rolled the whole transaction back.
 */
export function groupByPartition<Batch extends { partition: number }, Result>(
  apply: (batches: Batch[]) => Promise<Result[]>,
): (batch: Batch) => Promise<Result> {
  const waiting: Waiting<Batch, Result>[] = [];
  let running = false;
  const run = async () => {
    while (waiting.length > 0) {
      const taken: Waiting<Batch, Result>[] = [];
      const partitions = new Set<number>();
      for (const next of [...waiting]) {
        if (partitions.has(next.batch.partition)) continue;
        partitions.add(next.batch.partition);
        taken.push(next);
        waiting.splice(waiting.indexOf(next), 1);
      }
      try {
        const results = await apply(taken.map((next) => next.batch));
        taken.forEach((next, index) => next.resolve(results[index]!));
      } catch (error) {
        for (const next of taken) next.reject(error);
      }
    }
    running = false;
  };
  return (batch) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ batch, resolve, reject });
      if (running) return;
      running = true;
      // The consumer hands over a fetch's partitions one after another: let them all arrive.
      setImmediate(() => void run());
    });
}
