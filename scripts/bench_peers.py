#!/usr/bin/python3
"""The peers of `quatcheck bench --suite harness`: what a user would write instead of the certified reference,
timed on the same cases as the harness benchmarks (docs/timing.md, "Peers").

Usage: bench_peers.py CASES MPMATH_CASES MIN_TIME REPETITIONS

CASES is a file of little-endian doubles, nine per case (q0 w x y z, q1 w x y z, t), written by quatcheck bench.
Prints one JSON object on stdout, one member per peer:
  numpy_f64:   a vectorised f64 slerp in numpy over every case (uncertified: plain double, no error bound);
  mpmath_40:   the reference's formula in mpmath at 40 significant digits on the first MPMATH_CASES cases;
each {"ns_per_case", "cv", "repetitions", "cases", "version"}, or {"skip": reason} where the module is missing;
  numpy_state: what numpy's figure ran on (issue 45, per the machine notes: a BLAS's threads and kernel change it):
               "env" the thread and BLAS variables (null where unset), "blas_loaded" the BLAS/LAPACK/OpenMP libraries
               mapped into this process after importing numpy (/proc/self/maps, real paths), "blas_config" numpy's
               build configuration of its BLAS, "threadpoolctl" its threadpool_info() or why there is none, "version";
               with numpy missing only "env" and "skip".
Times are CPU time of this process (time.process_time_ns), as Google Benchmark's, mean over REPETITIONS, each
repetition at least MIN_TIME seconds. A malformed argument or file: one line on stderr, exit 2.
"""
import json
import os
import signal
import struct
import sys
import time

# Interrupted with quatcheck bench (the same process group): end quietly, bench reports the interruption.
signal.signal(signal.SIGINT, signal.SIG_DFL)


def fail(msg):
    print(f"quatcheck: bench_peers.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read_cases(path):
    limit = 9 * 8 * (1 << 20)  # at most 2^20 cases
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if len(data) > limit or len(data) == 0 or len(data) % 72:
        fail(f"{path}: expected a positive multiple of 72 bytes up to {limit}, got {len(data)}")
    vals = struct.unpack(f"<{len(data) // 8}d", data)
    cases = [vals[i:i + 9] for i in range(0, len(vals), 9)]
    for k, c in enumerate(cases):
        if not all(v == v and abs(v) != float("inf") for v in c) or not 0 <= c[8] <= 1:
            fail(f"{path}: case {k + 1}: a non-finite component or t outside [0, 1]")
    return cases


def timed(fn, min_time, reps):
    """Mean and cv of the CPU ns per call of fn over reps repetitions of at least min_time s each."""
    fn()  # warm-up, untimed
    per_call = []
    for _ in range(reps):
        calls, start = 0, time.process_time_ns()
        while True:
            fn()
            calls += 1
            spent = time.process_time_ns() - start
            if spent >= min_time * 1e9:
                break
        per_call.append(spent / calls)
    mean = sum(per_call) / len(per_call)
    var = sum((x - mean) ** 2 for x in per_call) / (len(per_call) - 1)
    return mean, (var ** 0.5) / mean


# The variables that set a BLAS's or OpenMP's threads, or (OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE: set on some
# machines here, they slow a current OpenBLAS) its kernel: always listed, null where unset; any other variable with
# one of the prefixes is listed too. Values are cut to 200 characters.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                    "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
THREAD_PREFIXES = ("OMP_", "OPENBLAS_", "MKL_", "BLIS_", "GOTO_", "NVPL_")
BLAS_WORDS = ("blas", "lapack", "mkl", "blis", "omp", "nvpl", "accelerate", "atlas")


def thread_env():
    env = {k: os.environ.get(k) for k in THREAD_VARIABLES}
    env.update({k: v for k, v in os.environ.items() if k.startswith(THREAD_PREFIXES)})
    return {k: (v if v is None else v[:200]) for k, v in sorted(env.items())[:64]}


def loaded_blas():
    """The shared objects mapped into this process whose file name names a BLAS, LAPACK or OpenMP runtime."""
    found = set()
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.split(None, 5)
                path = parts[5].strip() if len(parts) == 6 else ""
                name = os.path.basename(path).lower()
                if ".so" in name and any(w in name for w in BLAS_WORDS):
                    found.add(os.path.realpath(path))
    except OSError as e:
        return [f"unknown (/proc/self/maps: {e.strerror})"]
    return sorted(found)[:32]


def blas_config(np):
    """numpy's build configuration of its BLAS: show_config's dict (numpy >= 1.25), else the distutils info."""
    try:
        deps = np.show_config(mode="dicts").get("Build Dependencies", {})
        blas = deps.get("blas", {})
        return {k: str(blas[k]) for k in ("name", "version", "openblas configuration") if k in blas}
    except (TypeError, AttributeError):
        pass
    try:
        info = np.__config__.get_info("blas_opt_info")
        return {"libraries": " ".join(info.get("libraries", [])),
                "library_dirs": " ".join(info.get("library_dirs", []))}
    except Exception as e:  # an unknown numpy: say so, do not fail the bench
        return {"unknown": f"{type(e).__name__}: {e}"[:200]}


def threadpool_state():
    try:
        import threadpoolctl
    except ImportError as e:
        return f"not installed ({e})"[:200]
    try:
        keep = ("user_api", "internal_api", "prefix", "filepath", "version", "num_threads", "threading_layer",
                "architecture")
        return [{k: pool.get(k) for k in keep if k in pool} for pool in threadpoolctl.threadpool_info()][:16]
    except Exception as e:  # a broken threadpoolctl: say so, do not fail the bench
        return f"threadpool_info() failed: {type(e).__name__}: {e}"[:200]


def numpy_state():
    try:
        import numpy as np
    except ImportError as e:
        return {"skip": f"numpy is missing ({e})", "env": thread_env()}
    return {"version": np.__version__, "env": thread_env(), "blas_loaded": loaded_blas(),
            "blas_config": blas_config(np), "threadpoolctl": threadpool_state()}


def numpy_peer(cases, min_time, reps):
    try:
        import numpy as np
    except ImportError as e:
        return {"skip": f"numpy is missing ({e}); install python3-numpy"}
    arr = np.array(cases, dtype=np.float64)
    q0, q1, t = arr[:, 0:4].copy(), arr[:, 4:8].copy(), arr[:, 8:9].copy()

    def slerp():
        # The usual vectorised slerp: normalise, the short arc, acos, sines, a linear fallback near W = 0.
        a = q0 / np.linalg.norm(q0, axis=1, keepdims=True)
        b = q1 / np.linalg.norm(q1, axis=1, keepdims=True)
        d = np.sum(a * b, axis=1, keepdims=True)
        b = np.where(d < 0, -b, b)
        d = np.clip(np.abs(d), 0.0, 1.0)
        w = np.arccos(d)
        s = np.sin(w)
        small = s < 1e-12
        safe = np.where(small, 1.0, s)
        s0 = np.where(small, 1.0 - t, np.sin((1.0 - t) * w) / safe)
        s1 = np.where(small, t, np.sin(t * w) / safe)
        return s0 * a + s1 * b

    mean, cv = timed(slerp, min_time, reps)
    return {"ns_per_case": mean / len(cases), "cv": cv, "repetitions": reps, "cases": len(cases),
            "version": np.__version__}


def mpmath_peer(cases, n, min_time, reps):
    try:
        import mpmath
    except ImportError as e:
        return {"skip": f"mpmath is missing ({e}); install python3-mpmath"}
    sample = cases[:n]
    ctx = mpmath.mp
    ctx.dps = 40

    def one(c):
        q0 = [ctx.mpf(x) for x in c[0:4]]
        q1 = [ctx.mpf(x) for x in c[4:8]]
        t = ctx.mpf(c[8])
        n0 = ctx.sqrt(ctx.fsum(x * x for x in q0))
        n1 = ctx.sqrt(ctx.fsum(x * x for x in q1))
        a = [x / n0 for x in q0]
        b = [x / n1 for x in q1]
        if ctx.fsum(x * y for x, y in zip(a, b)) < 0:
            b = [-x for x in b]
        diff = ctx.sqrt(ctx.fsum((x - y) ** 2 for x, y in zip(a, b)))
        summ = ctx.sqrt(ctx.fsum((x + y) ** 2 for x, y in zip(a, b)))
        w = 2 * ctx.atan2(diff, summ)
        if w == 0:
            return a
        sw = ctx.sin(w)
        s0, s1 = ctx.sin((1 - t) * w) / sw, ctx.sin(t * w) / sw
        return [s0 * x + s1 * y for x, y in zip(a, b)]

    def run():
        for c in sample:
            one(c)

    mean, cv = timed(run, min_time, reps)
    return {"ns_per_case": mean / len(sample), "cv": cv, "repetitions": reps, "cases": len(sample),
            "version": mpmath.__version__}


def main():
    if len(sys.argv) != 5:
        fail("usage: bench_peers.py CASES MPMATH_CASES MIN_TIME REPETITIONS")
    cases = read_cases(sys.argv[1])
    try:
        n, min_time, reps = int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    except ValueError:
        fail(f"expected an integer, a number of seconds and an integer, got {sys.argv[2:]}")
    if not (1 <= n <= len(cases)) or not (0 < min_time <= 60) or not (2 <= reps <= 100):
        fail(f"MPMATH_CASES in [1, {len(cases)}], MIN_TIME in (0, 60], REPETITIONS in [2, 100]; got {sys.argv[2:]}")
    out = {"numpy_f64": numpy_peer(cases, min_time, reps), "mpmath_40": mpmath_peer(cases, n, min_time, reps),
           "numpy_state": numpy_state()}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
