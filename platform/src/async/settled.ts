/**
 * Waits until every one of `work` has ended, then throws the first failure, if any: nothing is
 * left running behind a caller that gives up (Promise.all would reject at the first failure).
 */
export async function allSettledOrFirstFailure(work: readonly Promise<unknown>[]): Promise<void> {
  const failure = (await Promise.allSettled(work)).find(
    (ended): ended is PromiseRejectedResult => ended.status === 'rejected',
  );
  if (failure) throw failure.reason;
}
