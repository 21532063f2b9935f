"""Running ``torchcopy-fix`` over many files: worker processes (serially when there is no
usable process pool) and a one-line progress bar on a terminal."""
from __future__ import annotations

import os
import sys
import time
from typing import List, Optional, Sequence, Tuple

from . import vetting
from .fixer import process_path
from .results import FileResult
from .settings import Settings

_WORKER_SETTINGS: Tuple[Settings, ...] = ()


def _init_worker(settings: Tuple[Settings, ...]) -> None:
    global _WORKER_SETTINGS
    _WORKER_SETTINGS = settings
    vetting.start_run()
    if any(s.verify for s in settings):
        vetting.import_verifier()  # import torch once per worker, not per file


def _work(item: Tuple[str, bool, int]) -> FileResult:
    return process_path(item[0], item[1], _WORKER_SETTINGS[item[2]])


class Progress:
    """A one-line progress bar on stderr, only on a terminal and only for long runs."""

    DELAY = 0.5

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled and total > 1
        self.start = time.monotonic()
        self.last = 0.0
        self.drawn = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.DELAY or (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        width = 30
        filled = int(width * done / self.total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} files")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def progress_wanted(quiet: bool) -> bool:
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    return tty and not quiet and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


def run_files(files: List[Tuple[str, bool]], settings: Settings,
              per_file: Optional[Sequence[Settings]] = None) -> List[FileResult]:
    """Process ``(path, named explicitly)`` files, in ``settings.jobs`` processes when there
    are several; results in input order.  ``per_file``: each file's own settings (from the
    configuration nearest to it), default ``settings`` for all."""
    chosen = list(per_file) if per_file is not None else [settings] * len(files)
    distinct: List[Settings] = []
    index = {}
    for s in chosen:
        if id(s) not in index:
            index[id(s)] = len(distinct)
            distinct.append(s)
    items = [(path, explicit, index[id(s)]) for (path, explicit), s in zip(files, chosen)]
    progress = Progress(len(files), progress_wanted(settings.quiet))
    results: List[FileResult] = []
    try:
        if settings.jobs > 1 and len(files) > 1:
            try:
                from concurrent.futures import ProcessPoolExecutor
                from concurrent.futures.process import BrokenProcessPool

                workers = min(settings.jobs, len(files))
                chunk = max(1, min(32, len(files) // (workers * 4)))
                with ProcessPoolExecutor(workers, initializer=_init_worker,
                                         initargs=(tuple(distinct),)) as pool:
                    for r in pool.map(_work, items, chunksize=chunk):
                        results.append(r)
                        progress.update(len(results))
                return results
            except (OSError, ImportError, NotImplementedError, BrokenProcessPool):
                # no usable process pool here (sandbox, a worker killed): go on serially
                done = {r.path for r in results}
                items = [item for item in items if item[0] not in done]
        for path, explicit, which in items:
            results.append(process_path(path, explicit, distinct[which]))
            progress.update(len(results))
        return results
    finally:
        progress.close()
