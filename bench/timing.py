"""Timing helpers shared by the benchmark scripts."""
from __future__ import annotations

import gc
import statistics
import time
from typing import Callable


def measure(fn: Callable[[], object], *, runs: int = 50, warmup: int = 3) -> list[float]:
    """Wall-clock milliseconds of `runs` calls (after `warmup`), garbage collector paused."""
    for _ in range(warmup):
        fn()
    samples = []
    gc.disable()
    try:
        for _ in range(runs):
            t0 = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - t0) * 1000)
    finally:
        gc.enable()
    return samples


def summary(name: str, samples: list[float], target: str = "") -> str:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(round(0.95 * (len(samples) - 1))))]
    line = f"{name:<48} median {statistics.median(samples):8.3f} ms   p95 {p95:8.3f} ms   n={len(samples)}"
    return line + (f"   target {target}" if target else "")
