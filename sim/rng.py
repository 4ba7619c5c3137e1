"""Explicit per-game random streams (splitmix64), identical under any thread count and without the JIT.

Each game owns two 64-bit stream states kept in its state record (`s.rng`): stream 0 draws chance (dice,
shuffles), stream 1 draws the random choices of strategies.  Separating them keeps the dice of a game unchanged
when only a strategy's random tie-breaks change (common random numbers).  Seeds derive from (run seed, seed
index) with a strong mix, so game k of a run is reproducible on its own.
"""

import numba as nb
import numpy as np

np.seterr(over="ignore")  # uint64 wrap-around is intended; the interpreted (NUMBA_DISABLE_JIT) path would warn

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_POLICY_SALT = np.uint64(0x5DEECE66D1234567)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@nb.njit(cache=True, inline="always")
def mix64(z):
    """splitmix64 finaliser: a bijective avalanche of a 64-bit word."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@nb.njit(cache=True)
def game_seed(master, seed_index):
    """The 64-bit seed of one game: mix64(master ^ mix64(index * GOLDEN + GOLDEN))."""
    return mix64(np.uint64(master) ^ mix64(np.uint64(seed_index) * GOLDEN + GOLDEN))


@nb.njit(cache=True)
def seed_streams(rng, master, seed_index):
    """Initialise a game's two streams (rng[0] chance, rng[1] policy) from the run seed and seed index."""
    g = game_seed(master, seed_index)
    rng[0] = g
    rng[1] = mix64(g ^ _POLICY_SALT)


@nb.njit(cache=True, inline="always")
def next_u64(rng, k):
    """Advance stream k and return its next 64-bit output (splitmix64)."""
    rng[k] = rng[k] + GOLDEN
    return mix64(rng[k])


@nb.njit(cache=True, inline="always")
def rand_below(rng, k, n):
    """Uniform integer in [0, n) from stream k (53-bit float scaling; bias below 2**-40 for n < 2**13)."""
    u = np.float64(next_u64(rng, k) >> _S11) * _INV53
    return np.int64(u * n)


@nb.njit(cache=True, inline="always")
def rand_float(rng, k):
    """Uniform float in [0, 1) from stream k."""
    return np.float64(next_u64(rng, k) >> _S11) * _INV53


@nb.njit(cache=True, inline="always")
def float_of(x):
    """The uniform float in [0, 1) drawn by a stream whose state has just become x (rand_float without the state
    record).  splitmix64 is counter based (the state after k draws is the start + k * GOLDEN), so a loop that
    draws per candidate can keep the stream in a local, add GOLDEN per candidate and store the state back once,
    with the very same numbers as drawing from the record every time.  (numba cannot tell that a store to the
    state record leaves its other fields alone, so storing per draw may reload them.)"""
    return np.float64(mix64(x) >> _S11) * _INV53


@nb.njit(cache=True)
def shuffle(rng, k, arr, n):
    """Fisher-Yates shuffle of arr[:n] in place, drawing from stream k."""
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, k, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
