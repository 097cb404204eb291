"""The tie rule's two constants, in a module that imports nothing.

Two criterion values are tied when they agree to the relative tolerance ``TIE_RTOL``; the
second key of the selection rule is the criterion at ``p = TIEBREAK_P`` (see
:mod:`.criteria`). The kernels, their numpy twins (:mod:`copa_dash.core._twins`, which
:mod:`copa_dash.core.jit` loads) and their slow references all read them from here, so that
none of those modules has to import a kernel module for a number: ``jit -> _twins ->
_kernels.criteria -> jit`` was an import cycle.

The kernels read these as compile-time constants, and numba's disk cache follows only the
file a kernel is written in: after changing a value here, clear ``NUMBA_CACHE_DIR``.
"""

TIE_RTOL = 1e-12
TIEBREAK_P = 8.0
