"""algorithms/_java_random.py against java.util.Random.

``tests/data/java_random_expected.txt`` was printed by a real JVM running
``tests/data/JavaRandomTable.java`` (the command is in the file's header). The first tests compare
bench's generator with that committed table, so they run without Java; the last one compiles and
runs the Java program when ``javac`` is on the PATH and compares its live output too.
"""

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from algorithms._java_random import JavaRandom, first_double, first_doubles, next_double_state, scramble

DATA = Path(__file__).parent / "data"
FIXTURE = DATA / "java_random_expected.txt"
JAVA_SOURCE = DATA / "JavaRandomTable.java"

# the same seeds, bounds and calls as JavaRandomTable.java
SEEDS = [0, 1, 42, 1990093, -1, -123456789, 3071980, 2 ** 48 - 1, 2 ** 48, 2 ** 62, 2 ** 63 - 1, -(2 ** 63)]
BOUNDS = [1, 2, 7, 10, 16, 1000, 1 << 30, (1 << 30) + 1, 2 ** 31 - 1]
BITS = [1, 7, 26, 27, 31, 32]
N = 12
REJECTION_BOUND = (1 << 30) + 1  # about half of next(31)'s values are rejected for this bound


def _parse(text: str) -> dict:
    """{(seed, call): [values as str]} of a table printed by JavaRandomTable (comments skipped)."""
    table = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        seed, call, values = line.split("\t")
        table[(int(seed), call)] = values.split(",")
    return table


def python_table() -> dict:
    """The table of JavaRandomTable.java, computed by bench's JavaRandom (values as Python objects)."""
    out = {}
    for seed in SEEDS:
        r = JavaRandom(seed)
        out[(seed, "nextInt()")] = [r.next_int() for _ in range(N)]
        for bound in BOUNDS:
            r = JavaRandom(seed)
            out[(seed, f"nextInt({bound})")] = [r.next_int(bound) for _ in range(N)]
        for b in BITS:
            r = JavaRandom(seed)
            out[(seed, f"next({b})")] = [r.next(b) for _ in range(N)]
        r = JavaRandom(seed)
        out[(seed, "nextDouble()")] = [r.next_double() for _ in range(N)]
        r = JavaRandom(seed)
        out[(seed, "nextLong()")] = [r.next_long() for _ in range(N)]
        r = JavaRandom(seed)
        out[(seed, "nextBoolean()")] = [r.next_boolean() for _ in range(N)]
        r = JavaRandom(seed)
        mixed = []
        for _ in range(4):
            mixed += [r.next_double(), r.next_int(7), r.next_int(), r.next_int(REJECTION_BOUND), r.next_long()]
        out[(seed, "mixed")] = mixed
    for s0 in (0, 1990093):
        out[(s0, "firstDouble(+0..39)")] = [JavaRandom(s).next_double() for s in range(s0, s0 + 40)]
    return out


def _as_java(values) -> list:
    """Python values parsed back from Java's printed form: ints, floats (hex) and booleans."""
    out = []
    for v in values:
        if v in ("true", "false"):
            out.append(v == "true")
        elif v.startswith(("0x", "-0x")):
            out.append(float.fromhex(v))
        else:
            out.append(int(v))
    return out


def _compare(java: dict, python: dict) -> None:
    assert set(java) == set(python), f"calls differ: {sorted(set(java) ^ set(python))[:5]}"
    for key, values in java.items():
        got = python[key]
        expect = _as_java(values)
        assert len(got) == len(expect), key
        for i, (g, e) in enumerate(zip(got, expect)):
            assert type(g) is type(e) and g == e, f"{key} draw {i}: bench {g!r}, Java {e!r}"


def test_matches_the_committed_java_table():
    _compare(_parse(FIXTURE.read_text()), python_table())


def test_fixture_covers_every_seed_and_path():
    table = _parse(FIXTURE.read_text())
    assert {s for s, _ in table} >= set(SEEDS)
    assert len(table) == len(python_table()) == len(SEEDS) * (len(BOUNDS) + len(BITS) + 5) + 2
    header = [ln for ln in FIXTURE.read_text().splitlines() if ln.startswith("#")]
    assert any("javac" in ln and "JavaRandomTable" in ln for ln in header), "the fixture names its command"
    assert any("java.version=" in ln for ln in header)


def test_rejection_path_of_next_int_bound_is_exercised():
    """nextInt(2**30 + 1) must redraw next(31) sometimes: count the LCG steps it takes."""
    redraws = 0
    for seed in SEEDS:
        r = JavaRandom(seed)
        for _ in range(N):
            before = r.state
            r.next_int(REJECTION_BOUND)
            steps, s = 0, before
            while s != r.state:
                s = (s * 0x5DEECE66D + 0xB) & ((1 << 48) - 1)
                steps += 1
                assert steps < 100
            redraws += steps - 1
    assert redraws > 10, "the fixture's seeds must hit the rejection loop"


def test_power_of_two_bound_uses_the_high_bits():
    r1, r2 = JavaRandom(1990093), JavaRandom(1990093)
    for _ in range(50):
        assert r1.next_int(16) == r2.next(31) >> 27  # (16 * next(31)) >> 31


def test_first_double_numba_and_numpy_agree_with_the_class():
    seeds = np.array([0, 1, 42, 1990093, -1, -123456789, 2 ** 48, 2 ** 63 - 1, -(2 ** 63)]
                     + list(range(1990093, 1990093 + 200)), dtype=np.int64)
    expect = np.array([JavaRandom(int(s)).next_double() for s in seeds])
    np.testing.assert_array_equal(first_doubles(seeds), expect)
    np.testing.assert_array_equal(np.array([first_double(np.int64(s)) for s in seeds]), expect)
    java = _as_java(_parse(FIXTURE.read_text())[(1990093, "firstDouble(+0..39)")])
    np.testing.assert_array_equal(first_doubles(np.arange(1990093, 1990093 + 40)), java)


def test_numba_state_stepping_matches_the_class():
    for seed in SEEDS:
        r = JavaRandom(seed)
        state = scramble(np.int64(seed))
        assert int(state) == r.state
        for _ in range(30):
            value, state = next_double_state(state)
            assert value == r.next_double() and int(state) == r.state


def test_consecutive_seeds_give_nearly_equal_first_doubles():
    """The property behind new Random(s).nextDouble() barely moves with s."""
    u = first_doubles(np.arange(1990093, 1990093 + 12))
    assert u.min() > 0.97 and u.max() < 0.98
    r = JavaRandom(1990093)
    assert np.ptp([r.next_double() for _ in range(12)]) > 0.5  # one persistent generator spreads


@pytest.mark.parametrize("seed", [1.5, "1", None, True, 2 ** 63, -(2 ** 63) - 1])
def test_bad_seed_is_a_clear_error(seed):
    with pytest.raises(ValueError, match="seed"):
        JavaRandom(seed)


@pytest.mark.parametrize("bound", [0, -3, 2 ** 31, 2.0])
def test_bad_bound_is_a_clear_error(bound):
    with pytest.raises(ValueError, match="bound"):
        JavaRandom(0).next_int(bound)


def test_bad_bits_is_a_clear_error():
    with pytest.raises(ValueError, match="bits"):
        JavaRandom(0).next(33)


@pytest.mark.skipif(shutil.which("javac") is None or shutil.which("java") is None, reason="needs javac and java")
def test_matches_a_live_jvm(tmp_path):
    subprocess.run(["javac", "-d", str(tmp_path), str(JAVA_SOURCE)], check=True, capture_output=True, timeout=120)
    live = subprocess.run(["java", "-cp", str(tmp_path), "JavaRandomTable"], check=True, capture_output=True,
                          text=True, timeout=120).stdout
    live_table = _parse(live)
    _compare(live_table, python_table())
    assert live_table == _parse(FIXTURE.read_text()), "the committed fixture is stale: regenerate it"
