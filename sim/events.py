"""The event log every engine keeps for `sim replay`: fixed-size int rows in the state, written only when
`s.log_on` is set, so batch runs pay one branch per event and allocate nothing.

Required state fields: ev (int32[MAX_EVENTS, 5]), n_ev (int32), log_on (int8).
Row layout: (kind, a, b, c, d); the game's `event_text` turns rows into words.
"""

import numba as nb


@nb.njit(cache=True, inline="always")
def log_event(s, kind, a, b, c, d):
    if s.log_on:
        i = s.n_ev
        if i < s.ev.shape[0]:
            s.ev[i, 0] = kind
            s.ev[i, 1] = a
            s.ev[i, 2] = b
            s.ev[i, 3] = c
            s.ev[i, 4] = d
            s.n_ev = i + 1
