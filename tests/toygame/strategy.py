import numba as nb


@nb.njit(cache=True)
def choose(s, p, seat, legal, n, sid, weights):
    # sid 1: hold once the turn total reaches weights[0]; legal is (ROLL, HOLD)
    return 1 if s.pot >= weights[0] else 0
