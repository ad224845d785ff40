"""Timing helpers shared by the benchmark scripts."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable


def measure(
    fn: Callable[[], object], *, runs: int = 50, warmup: int = 3, clock: Callable[[], float] = time.perf_counter
) -> list[float]:
    """Milliseconds of `runs` calls (after `warmup`) on `clock` (wall time; `time.process_time`
    for the process's CPU), garbage collector paused."""
    for _ in range(warmup):
        fn()
    samples = []
    gc.disable()
    try:
        for _ in range(runs):
            t0 = clock()
            fn()
            samples.append((clock() - t0) * 1000)
    finally:
        gc.enable()
    return samples


def summary(name: str, samples: list[float], target: str = "") -> str:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    line = f"{name:<48} median {statistics.median(samples):8.3f} ms   p95 {p95:8.3f} ms   n={len(samples)}"
    return line + (f"   target {target}" if target else "")


def measure_pair(
    a: Callable[[], object], b: Callable[[], object], *, runs: int = 30, warmup: int = 2
) -> tuple[list[float], list[float]]:
    """Time two operations alternately, so that load from other processes on a shared
    machine falls on both alike and their ratio stays meaningful."""
    for _ in range(warmup):
        a()
        b()
    first, second = [], []
    gc.disable()
    try:
        for _ in range(runs):
            t0 = time.perf_counter()
            a()
            t1 = time.perf_counter()
            b()
            t2 = time.perf_counter()
            first.append((t1 - t0) * 1000)
            second.append((t2 - t1) * 1000)
    finally:
        gc.enable()
    return first, second


def with_and_without(
    fn: Callable[[], object], switch: Callable[[bool], None], *, rounds: int = 5, runs: int = 6
) -> tuple[list[float], list[float]]:
    """CPU milliseconds of `fn` (this process's, so that other processes on a shared
    machine do not count) with something switched on and off (`switch(flag)` sets it and
    empties what was drawn and cached under the other setting), in alternating rounds of
    `runs` calls after one warm-up call. Leaves it switched on."""
    on: list[float] = []
    off: list[float] = []
    try:
        for _ in range(rounds):
            for flag, into in ((True, on), (False, off)):
                switch(flag)
                fn()
                gc.disable()
                try:
                    for _ in range(runs):
                        t0 = time.process_time()
                        fn()
                        into.append((time.process_time() - t0) * 1000)
                finally:
                    gc.enable()
    finally:
        switch(True)
    return on, off


def ratio_line(label: str, after: list[float], before: list[float], target: str) -> str:
    """ "label  ratio x.xx  target ..." of the medians after / before."""
    import statistics

    ratio = statistics.median(after) / statistics.median(before)
    return f"{label:<48} ratio {ratio:8.2f}        target {target}"
