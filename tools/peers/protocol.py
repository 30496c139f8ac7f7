"""ADBench's timing protocol, as the ADBench data folder's README describes it.

A function is called in batches of back-to-back calls: the batch size doubles from 1
until one batch takes longer than the minimum measurable time; then further batches
of that size follow, up to a number of batches or until the batches' total time
reaches a time limit. The figure is the minimum over the batches of the batch's
time divided by its size.
"""

import time


def shortest_time(call, minimum: float, batches: int, limit: float) -> float:
    """ADBench's figure for `call()` (which must wait for its result), in seconds."""
    repeats = 1
    while True:
        elapsed = _batch(call, repeats)
        if elapsed > minimum or repeats >= 1 << 30:
            break
        repeats *= 2
    best = elapsed / repeats
    total = elapsed
    done = 1
    while done < batches and total < limit:
        elapsed = _batch(call, repeats)
        best = min(best, elapsed / repeats)
        total += elapsed
        done += 1
    return best


def _batch(call, repeats: int) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        call()
    return time.perf_counter() - start


def from_call_times(times: list, minimum: float) -> float:
    """The same figure from the times of single consecutive calls (as an executable
    that times each call reports them): the calls are grouped into batches of the
    size the protocol would choose, and the minimum batch mean is returned. With too
    few calls for a whole batch, the mean of all calls."""
    if not times:
        raise ValueError("no call times")
    repeats = batch_size(sum(times) / len(times), minimum)
    whole = len(times) // repeats
    if whole == 0:
        return sum(times) / len(times)
    return min(sum(times[i * repeats : (i + 1) * repeats]) / repeats for i in range(whole))


def batch_size(per_call: float, minimum: float) -> int:
    """The protocol's batch size for calls of `per_call` seconds: the smallest power
    of two whose batch takes longer than `minimum`."""
    repeats = 1
    while repeats * per_call <= minimum and repeats < 1 << 30:
        repeats *= 2
    return repeats
