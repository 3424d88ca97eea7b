"""Process resources: CPU and wall clocks, peak resident memory, thread limits."""

from __future__ import annotations

import os
import resource
import time
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Timing:
    cpu_s: float = 0.0
    wall_s: float = 0.0
    jit_s: float = 0.0  # wall seconds of Numba compilation inside the block (:func:`timed_without_jit`)


@contextmanager
def timed(into: Timing):
    """Add the process CPU seconds (all threads) and wall seconds of the block to ``into``."""
    c0, w0 = time.process_time(), time.perf_counter()
    try:
        yield into
    finally:
        into.cpu_s += time.process_time() - c0
        into.wall_s += time.perf_counter() - w0


def _compile_seconds(buffer) -> float:
    """Wall seconds covered by the outermost ``numba:compile`` events of a recorder's buffer (a compile
    that triggers another compile counts once)."""
    depth, start, total = 0, 0.0, 0.0
    for t, event in buffer:
        if event.is_start:
            if depth == 0:
                start = t
            depth += 1
        elif event.is_end and depth > 0:
            depth -= 1
            if depth == 0:
                total += t - start
    return total


@contextmanager
def timed_without_jit(into: Timing):
    """:func:`timed`, minus the time Numba spends compiling inside the block.

    A kernel compiled for the first time (a cold on-disk cache, or a new type signature such as the
    int32 counts a count learner switches to past 32767 rows) would otherwise be counted as the
    algorithm's time at whichever size happens to trigger it: the MassBayes Fig. 3 spike (
    A1DE's training time 129x at 10x the data, 11x at 75x). Compilation is single-threaded, so its wall
    seconds are taken off both clocks; they are kept in ``into.jit_s``. Loading a kernel from Numba's
    disk cache is not compilation and stays counted."""
    try:
        from numba.core import event as ev
    except ImportError:  # pragma: no cover - numba is a core dependency
        with timed(into):
            yield into
        return
    inner = Timing()
    with ev.install_recorder("numba:compile") as rec:
        with timed(inner):
            yield into
    jit = _compile_seconds(rec.buffer)
    into.cpu_s += max(inner.cpu_s - jit, 0.0)
    into.wall_s += max(inner.wall_s - jit, 0.0)
    into.jit_s += jit


class _ByteCount:
    """A write-only file that keeps only the number of bytes written to it."""

    __slots__ = ("n",)

    def __init__(self):
        self.n = 0

    def write(self, data) -> int:
        k = memoryview(data).nbytes
        self.n += k
        return k


def pickled_size(obj) -> int:
    """``len(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))``, the bytes of ``obj`` pickled,
    counted as the pickler writes them instead of gathered into one bytes object: a model of tens of
    MB (KDB-5 on letter: 79 MB) is measured in about a millisecond where the copy took tens."""
    import pickle

    sink = _ByteCount()
    pickle.Pickler(sink, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return sink.n


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (Linux >= 4.0: write 5 to /proc/self/clear_refs),
    so that :func:`peak_rss_mb` measures from now on. False where unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def rss_mb() -> float:
    kb = _status_kb("VmRSS")
    return kb / 1024 if kb is not None else float("nan")


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (since the last reset)."""
    kb = _status_kb("VmHWM")
    if kb is None:
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024


def limit_threads(n: int | None) -> None:
    """Limit BLAS/OpenMP and Numba threads of this process to ``n`` (None: leave as is)."""
    if not n:
        return
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(n)
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(int(n))
    except ImportError:  # pragma: no cover
        pass
    try:
        import numba

        numba.set_num_threads(min(int(n), numba.config.NUMBA_NUM_THREADS))
    except (ImportError, ValueError):  # pragma: no cover
        pass


# ------------------------------------------------------------------ memory limit per split
#: default ``mem_limit_gb: auto``: this fraction of the machine's physical memory
AUTO_MEM_FRACTION = 0.85


def physical_memory_bytes() -> int | None:
    """Physical memory of the machine in bytes (None where the OS does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover
        return None


def data_mb() -> float:
    """This process's data memory in MiB (``VmData``: private writable mappings, what
    RLIMIT_DATA limits)."""
    kb = _status_kb("VmData")
    return kb / 1024 if kb is not None else float("nan")


#: the smallest memory limit taken (GiB): below it not even the interpreter fits, so it is a typo
MIN_MEM_LIMIT_GB = 0.01


def resolve_mem_limit(value) -> int | None:
    """The per-split memory limit in bytes from the ``mem_limit_gb`` option.

    ``"auto"`` -> :data:`AUTO_MEM_FRACTION` of the physical memory; a positive number -> that
    many GiB; ``None`` / ``0`` / ``false`` / ``"none"`` -> no limit (None). Anything else raises
    ValueError naming the option and the accepted values."""
    if value is None or value is False:
        return None
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("", "none", "null", "off", "0"):
            return None
        if text == "auto":
            phys = physical_memory_bytes()
            return int(AUTO_MEM_FRACTION * phys) if phys else None
    try:
        gb = float(value)
        if isinstance(value, bool) or gb != gb or gb < 0:
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"mem_limit_gb={value!r} is not a memory limit; give a number of GiB (e.g. "
                         f"mem_limit_gb=16), mem_limit_gb=auto ({AUTO_MEM_FRACTION:g} of physical memory) "
                         f"or mem_limit_gb=null (no limit)") from None
    if 0 < gb < MIN_MEM_LIMIT_GB:
        raise ValueError(f"mem_limit_gb={value!r} is below {MIN_MEM_LIMIT_GB:g} GiB, less than a Python process alone "
                         f"needs: no split could run under it. Give a limit in GiB (e.g. mem_limit_gb=4), "
                         f"mem_limit_gb=auto or mem_limit_gb=null (no limit)")
    return int(gb * 2**30) if gb > 0 else None


@contextmanager
def memory_limit(limit_bytes: int | None):
    """Cap this process's data memory at ``limit_bytes`` for the block, then restore the
    previous cap.

    Uses the soft ``RLIMIT_DATA``: on Linux >= 4.7 it counts private writable mappings
    (``VmData``: malloc/mmap'd heap, NumPy and Numba arrays), so an allocation beyond it fails
    and Python/NumPy/Numba raise MemoryError, where without a cap the kernel's OOM killer
    would kill the whole process (and a whole sweep run in it). Unlike RLIMIT_AS it does not
    count read-only or PROT_NONE reservations (code, allocator arenas, the JVM's reserved heap).
    The limit is on the process's total, not on the block's increase. The hard limit is kept,
    so the soft one can be restored; a limit above the hard one is clipped to it. No-op for
    None or where RLIMIT_DATA is unavailable."""
    if not limit_bytes or not hasattr(resource, "RLIMIT_DATA"):
        yield None
        return
    old_soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    new = int(limit_bytes) if hard == resource.RLIM_INFINITY else min(int(limit_bytes), hard)
    if old_soft != resource.RLIM_INFINITY:
        new = min(new, old_soft)  # never loosen a tighter cap set from outside (ulimit -d)
    resource.setrlimit(resource.RLIMIT_DATA, (new, hard))
    try:
        yield new
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (old_soft, hard))


# ------------------------------------------------------------------ a split in its own process
@dataclass
class ChildOutcome:
    """How :func:`run_limited` ended: ``kind`` is ``"returned"`` (``value`` holds the result),
    ``"raised"`` (``error``: the exception's ``type``, ``message``, ``traceback``, ``memory``,
    ``not_applicable``), ``"died"`` (the process ended without an answer: ``signal`` or
    ``exit_code``) or ``"timeout"`` (stopped after ``time_limit_s``). ``stderr_tail`` holds the
    last lines the process wrote to stderr (an ``LLVM ERROR`` or ``std::bad_alloc`` says why it died)."""

    kind: str
    value: object = None
    error: dict | None = None
    signal: int | None = None
    exit_code: int | None = None
    wall_s: float = 0.0
    stderr_tail: str = ""


def prefer_forksafe_threads() -> None:
    """Have Numba's parallel kernels use a threading layer that survives ``fork`` (Numba's
    ``forksafe`` choice: TBB when installed, else its own workqueue), unless the user chose one
    with ``NUMBA_THREADING_LAYER``. GNU OpenMP, Numba's usual choice on Linux, stops a forked
    child ("fork() called from a process already using GNU OpenMP") once the parent has run a
    parallel kernel, as the warm-up does. Must run before the first parallel kernel of the process."""
    import sys

    if os.environ.get("NUMBA_THREADING_LAYER"):
        return
    os.environ["NUMBA_THREADING_LAYER"] = "forksafe"
    config = sys.modules.get("numba.core.config")
    if config is not None and getattr(config, "THREADING_LAYER", None) == "default":
        config.THREADING_LAYER = "forksafe"


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (no-op where prctl is absent)."""
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


def run_limited(fn, mem_limit_bytes: int | None = None, time_limit_s: float | None = None,
                classify=None) -> ChildOutcome:
    """Run ``fn()`` in a forked child process under a data-memory limit (:func:`memory_limit`)
    and a wall-clock time limit, and return how it ended (:class:`ChildOutcome`).

    Whatever happens in the child stays there: a MemoryError, an abort in native code that cannot
    allocate memory (LLVM's "Unable to allocate section memory", C++'s ``std::bad_alloc``), a
    segfault, or a hang (the parent kills the child with SIGKILL at the time limit; nothing in the
    child, not even a spin inside ``malloc``, can keep it alive). The child inherits everything
    loaded before the fork (data, compiled Numba kernels: warm them in the parent first), sends
    back the value of ``fn()`` pickled through a pipe and leaves with ``os._exit`` (no exit
    handlers, no flushing of the parent's buffers). Its stderr is passed on to the parent's and
    the tail kept. ``classify(exc) -> dict`` adds fields to the description of an exception
    raised by ``fn`` (e.g. whether it means "not applicable"). Linux (fork, RLIMIT_DATA)."""
    import pickle
    import select
    import signal
    import sys
    import traceback

    for stream in (sys.stdout, sys.stderr):  # what the parent buffered must not be written twice
        try:
            stream.flush()
        except Exception:
            pass
    r, w = os.pipe()
    er, ew = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # ------------------------------------------------------------ the child
        code = 0
        try:
            os.close(r)
            os.close(er)
            os.dup2(ew, 2)
            os.close(ew)
            _die_with_parent()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            old = resource.getrlimit(resource.RLIMIT_DATA) if hasattr(resource, "RLIMIT_DATA") else None
            try:
                with memory_limit(mem_limit_bytes):
                    payload = ("returned", fn())
            except BaseException as exc:  # noqa: BLE001 - every outcome goes back to the parent
                if old is not None:
                    resource.setrlimit(resource.RLIMIT_DATA, old)
                info = {"type": type(exc).__name__, "message": str(exc), "traceback": traceback.format_exc(),
                        "memory": isinstance(exc, MemoryError), "not_applicable": False}
                if classify is not None:
                    try:
                        info.update(classify(exc))
                    except Exception:
                        pass
                payload = ("raised", info)
            try:
                data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:
                data = pickle.dumps(("raised", {"type": type(exc).__name__, "message": f"cannot send the split's "
                                                f"result to the job: {exc}", "traceback": traceback.format_exc(),
                                                "memory": False, "not_applicable": False}))
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:
                    pass
            view = memoryview(data)
            while view:
                view = view[os.write(w, view):]
            os.close(w)
        except BaseException:  # noqa: BLE001
            code = 70
        finally:
            os._exit(code)
    # ------------------------------------------------------------------------------- the parent
    os.close(w)
    os.close(ew)
    chunks, tail = [], [b""]
    deadline = None if not time_limit_s else t0 + float(time_limit_s)
    timed_out, status = False, None

    def take(fd) -> bool:
        """Read what is there from ``fd``; False at end of file or, non-blocking, when it is empty."""
        try:
            block = os.read(fd, 1 << 20)
        except BlockingIOError:
            return False
        if not block:
            return False
        if fd == r:
            chunks.append(block)
        else:
            tail[0] = (tail[0] + block)[-4000:]
            try:
                os.write(2, block)
            except OSError:
                pass
        return True

    open_fds = {r, er}
    try:
        while r in open_fds:
            wait = 0.5 if deadline is None else min(0.5, deadline - time.perf_counter())
            if wait <= 0:
                timed_out = True
                break
            ready, _, _ = select.select(list(open_fds), [], [], wait)
            for fd in ready:
                if not take(fd):  # end of file: closed here (one pipe per split leaked until fd 1024 broke select)
                    open_fds.discard(fd)
                    os.close(fd)
            if r in open_fds:  # a process the child started may hold the pipe: has the child ended?
                done, st = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = st
                    break
        if not timed_out:
            for fd in open_fds:  # what is left in the pipes, without waiting for their other ends
                os.set_blocking(fd, False)
                while take(fd):
                    pass
    except BaseException:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        raise
    finally:
        for fd in open_fds:
            os.close(fd)
    if status is None:
        if timed_out:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    wall = time.perf_counter() - t0
    stderr_tail = tail[0].decode("utf-8", "replace")
    if timed_out:
        return ChildOutcome("timeout", wall_s=wall, stderr_tail=stderr_tail)
    data = b"".join(chunks)
    if data:
        try:
            kind, value = pickle.loads(data)
        except Exception:
            kind, value = None, None
        if kind == "returned":
            return ChildOutcome("returned", value=value, wall_s=wall, stderr_tail=stderr_tail)
        if kind == "raised":
            return ChildOutcome("raised", error=value, wall_s=wall, stderr_tail=stderr_tail)
    return ChildOutcome("died", signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                        exit_code=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None, wall_s=wall,
                        stderr_tail=stderr_tail)


# ------------------------------------------------------------------ one process for many splits
def _write_msg(fd: int, obj) -> None:
    """Send ``obj`` pickled through the pipe ``fd``, preceded by its length (8 bytes)."""
    import pickle

    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, n: int) -> bytes | None:
    """``n`` bytes from ``fd`` (blocking), or None at end of file."""
    parts, got = [], 0
    while got < n:
        block = os.read(fd, min(n - got, 1 << 20))
        if not block:
            return None
        parts.append(block)
        got += len(block)
    return b"".join(parts)


#: glibc's ``mallopt`` parameters (malloc.h) and the largest mmap threshold it takes on a 64-bit system
#: (DEFAULT_MMAP_THRESHOLD_MAX = 4 MiB x sizeof(long))
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
HELD_MMAP_THRESHOLD = 32 * 2**20
_HELD_TRIM_THRESHOLD = 2**31 - 1


def hold_freed_memory() -> bool:
    """Make the C heap keep the memory it frees for the rest of the process (glibc ``mallopt``): the top of
    the heap is never given back to the system (``M_TRIM_THRESHOLD`` at its largest), and blocks up to
    :data:`HELD_MMAP_THRESHOLD` come from the heap, not from a mapping of their own that ``free`` unmaps
    (``M_MMAP_THRESHOLD``). A timed step then never pays the page faults of touching memory again that an
    earlier step gave back: by default glibc returns a freed top or mapping of 128 KiB and more (its
    threshold moving with what was freed), and which later step faults it in again depends on the heap's
    history, not on the step's own work; the faults are the kernel's CPU time, inside ``process_time``. For
    timing steps of a millisecond or less (ECOC-NB's extra step over NB); freed memory is then held by the
    process until it exits. True when applied, False where there is no glibc ``mallopt``."""
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
        ok = libc.mallopt(_M_TRIM_THRESHOLD, _HELD_TRIM_THRESHOLD) == 1
        return bool(ok and libc.mallopt(_M_MMAP_THRESHOLD, HELD_MMAP_THRESHOLD) == 1)
    except (OSError, AttributeError):
        return False


def _malloc_trim() -> None:
    """Give the C heap's free pages back to the system (glibc ``malloc_trim``; no-op elsewhere)."""
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


#: a worker whose data memory after a task has grown by more than this over its start (MiB) is
#: replaced before the next task, so that every task starts with about the memory a fresh fork has
#: (freed memory that the C heap keeps would otherwise count against the next task's limit)
WORKER_GROWTH_MB = 32.0
#: seconds a worker process has to leave after its command pipe closed, before it is killed
WORKER_EXIT_S = 5.0


class LimitedWorker:
    """A forked process that runs ``handler(message)`` for one message after another, under a
    data-memory limit (:func:`memory_limit`, set once in the process) and, per call, a wall-clock
    time limit: what :func:`run_limited` does for one call, without a fork and an exit per call.

    The process is forked at the first :meth:`call`, so it inherits what was loaded before (data,
    compiled kernels, ``handler`` and whatever it refers to); a message is a small picklable value
    (which task to run), the answer the pickled return value. Each call ends as
    :class:`ChildOutcome` does for :func:`run_limited`: ``returned``, ``raised`` (the process then
    ends: an exception, a MemoryError above all, may leave it in any state), ``died`` (a signal, an
    abort in native code, ``os._exit``) or ``timeout`` (SIGKILL at the limit). After anything but
    ``returned``, and after a call whose process kept more than :data:`WORKER_GROWTH_MB` of data
    memory, the next call starts a new process. So every call starts in a process that ran only
    calls that returned, with about the memory and the global random states (NumPy's and
    ``random``'s, restored before each call) of a fresh fork. :meth:`close` ends the process."""

    def __init__(self, handler, mem_limit_bytes: int | None = None, classify=None, before_fork=None):
        self.handler, self.mem_limit, self.classify = handler, mem_limit_bytes, classify
        self.before_fork = before_fork  # called before each fork (e.g. to let this process's threads finish)
        self.pid: int | None = None
        self.started = 0  # processes forked so far
        self._fds: tuple[int, int, int] | None = None  # (commands to the child, answers, its stderr)

    # ------------------------------------------------------------------ the child
    def _child(self, cmd_r: int, ans_w: int) -> None:
        import pickle
        import random
        import signal
        import sys
        import traceback

        import numpy as np

        _die_with_parent()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        np_state, py_state = np.random.get_state(), random.getstate()
        import gc

        gc.freeze()  # what the job loaded is never garbage here: a collection after a task scans the task's objects only
        rlimit = resource.getrlimit(resource.RLIMIT_DATA) if hasattr(resource, "RLIMIT_DATA") else None
        with memory_limit(self.mem_limit):
            start_mb = data_mb()
            while True:
                head = _read_exact(cmd_r, 8)
                if head is None:
                    return
                body = _read_exact(cmd_r, int.from_bytes(head, "little"))
                if body is None:
                    return
                np.random.set_state(np_state)
                random.setstate(py_state)
                try:
                    payload = ("returned", self.handler(pickle.loads(body)))
                except BaseException as exc:  # noqa: BLE001 - every outcome goes back to the parent
                    if rlimit is not None:
                        resource.setrlimit(resource.RLIMIT_DATA, rlimit)
                    info = {"type": type(exc).__name__, "message": str(exc), "traceback": traceback.format_exc(),
                            "memory": isinstance(exc, MemoryError), "not_applicable": False}
                    if self.classify is not None:
                        try:
                            info.update(self.classify(exc))
                        except Exception:
                            pass
                    payload = ("raised", info)
                for stream in (sys.stdout, sys.stderr):
                    try:
                        stream.flush()
                    except Exception:
                        pass
                retire = payload[0] != "returned"
                if not retire:
                    gc.collect()
                    _malloc_trim()
                    retire = data_mb() - start_mb > WORKER_GROWTH_MB
                try:
                    _write_msg(ans_w, (*payload, retire))
                except Exception as exc:  # the answer does not pickle
                    _write_msg(ans_w, ("raised", {"type": type(exc).__name__, "message": f"cannot send the "
                                       f"split's result to the job: {exc}", "traceback": traceback.format_exc(),
                                       "memory": False, "not_applicable": False}, True))
                    return
                if retire:
                    return

    def _start(self) -> None:
        import sys

        if self.before_fork is not None:
            self.before_fork()
        for stream in (sys.stdout, sys.stderr):  # what the parent buffered must not be written twice
            try:
                stream.flush()
            except Exception:
                pass
        cmd_r, cmd_w = os.pipe()
        ans_r, ans_w = os.pipe()
        er, ew = os.pipe()
        pid = os.fork()
        if pid == 0:  # ------------------------------------------------------------ the child
            code = 0
            try:
                for fd in (cmd_w, ans_r, er):
                    os.close(fd)
                os.dup2(ew, 2)
                os.close(ew)
                self._child(cmd_r, ans_w)
            except BaseException:  # noqa: BLE001
                code = 70
            finally:
                os._exit(code)
        for fd in (cmd_r, ans_w, ew):
            os.close(fd)
        os.set_blocking(er, False)
        self.pid, self._fds, self.started = pid, (cmd_w, ans_r, er), self.started + 1

    def _end(self, kill: bool) -> int | None:
        """Close the pipes and reap the process (SIGKILL first with ``kill``); its wait status."""
        import signal

        pid, fds = self.pid, self._fds
        self.pid, self._fds = None, None
        if fds:
            for fd in fds:
                try:
                    os.close(fd)
                except OSError:
                    pass
        if pid is None:
            return None
        if kill:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _, status = os.waitpid(pid, 0)
        return status

    def close(self) -> None:
        """End the process: it leaves when its command pipe closes. It is reaped by a thread of
        this process (killed if it has not left within :data:`WORKER_EXIT_S`), so the caller does
        not wait for the exit of a large process."""
        if self.pid is None:
            return
        import signal
        import threading

        pid = self.pid
        self.pid = None
        self._end(kill=False)  # closes the pipes only (no pid any more)

        def reap():
            deadline = time.perf_counter() + WORKER_EXIT_S
            while time.perf_counter() < deadline:
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    return
                if done:
                    return
                time.sleep(0.01)
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass

        threading.Thread(target=reap, name="bench-worker-reap", daemon=True).start()

    # ------------------------------------------------------------------ the parent
    def call(self, message, time_limit_s: float | None = None) -> ChildOutcome:
        """Run ``handler(message)`` in the worker process (started now if there is none) and
        return how it ended."""
        import pickle
        import select

        if self.pid is None:
            self._start()
        try:
            _write_msg(self._fds[0], message)
        except BrokenPipeError:  # the process ended while idle (killed from outside): the call gets a new one
            self._end(kill=True)
            self._start()
            _write_msg(self._fds[0], message)
        cmd_w, ans_r, er = self._fds
        t0 = time.perf_counter()
        deadline = None if not time_limit_s else t0 + float(time_limit_s)
        tail = [b""]

        def drain_stderr() -> None:
            while True:
                try:
                    block = os.read(er, 1 << 16)
                except (BlockingIOError, OSError):
                    return
                if not block:
                    return
                tail[0] = (tail[0] + block)[-4000:]
                try:
                    os.write(2, block)
                except OSError:
                    pass

        try:
            buf = bytearray()
            need, timed_out, eof = None, False, False
            while not eof:
                wait = 0.5 if deadline is None else min(0.5, deadline - time.perf_counter())
                if wait <= 0:
                    timed_out = True
                    break
                ready, _, _ = select.select([ans_r, er], [], [], wait)
                if er in ready:
                    drain_stderr()
                if ans_r in ready:
                    block = os.read(ans_r, 1 << 20)
                    if not block:
                        eof = True
                        break
                    buf += block
                    if need is None and len(buf) >= 8:
                        need = 8 + int.from_bytes(buf[:8], "little")
                    if need is not None and len(buf) >= need:
                        break
                elif not ready:  # a process the child started may hold the pipe: has the child ended?
                    done, status = os.waitpid(self.pid, os.WNOHANG)
                    if done:
                        drain_stderr()
                        self.pid = None  # reaped: _end only closes the pipes
                        self._end(kill=False)
                        return self._died(status, t0, tail[0])
        except BaseException:
            self._end(kill=True)
            raise
        drain_stderr()
        wall = time.perf_counter() - t0
        stderr_tail = tail[0].decode("utf-8", "replace")
        if timed_out:
            self._end(kill=True)
            return ChildOutcome("timeout", wall_s=wall, stderr_tail=stderr_tail)
        if eof:
            status = self._end(kill=False)
            return self._died(status, t0, tail[0])
        kind, value, retire = pickle.loads(bytes(buf[8:need]))
        if retire:
            self.close()
        if kind == "returned":
            return ChildOutcome("returned", value=value, wall_s=wall, stderr_tail=stderr_tail)
        return ChildOutcome("raised", error=value, wall_s=wall, stderr_tail=stderr_tail)

    @staticmethod
    def _died(status, t0, tail: bytes) -> ChildOutcome:
        wall = time.perf_counter() - t0
        if status is None:
            return ChildOutcome("died", wall_s=wall, stderr_tail=tail.decode("utf-8", "replace"))
        return ChildOutcome("died", signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                            exit_code=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None, wall_s=wall,
                            stderr_tail=tail.decode("utf-8", "replace"))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
