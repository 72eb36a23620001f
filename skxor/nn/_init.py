"""Random initialization of the sparse-XOR attention model (keys and queries)."""

from sklearn.utils import check_random_state

from .._utils._sphere import initial_queries, sphere_keys


def sparse_xor_init(n_features, m, n_heads=2, init="antisymmetric", random_state=None):
    """Random keys and initial queries of the sparse-XOR attention model.

    The initialization of Han & Ghoshdastidar (2025, arXiv 2502.07553): the
    positional keys ``v_1 .. v_d`` are i.i.d. uniform on the unit sphere of
    R^m, then the queries are drawn, in that order from one generator. This
    is the draw :class:`skxor.SparseXORTransformer` makes at the start of
    ``fit`` (with ``random_state`` its own), so a study that calls it with the
    estimator's seed starts from the estimator's exact model.

    Parameters
    ----------
    n_features : int
        Number of positions d (the input length).
    m : int
        Embedding dimension of keys and queries.
    n_heads : int, default=2
        Number of heads H.
    init : {"antisymmetric", "random"}, default="antisymmetric"
        ``"antisymmetric"`` places the heads at the vertices of a regular
        simplex on the unit sphere, rotated uniformly at random: for two heads
        ``theta_2 = -theta_1`` with ``theta_1`` uniform on the sphere; for H
        heads all pairwise inner products are ``-1/(H-1)`` (needs
        ``m >= H - 1``). ``"random"`` draws every head independently and
        uniformly from the sphere.
    random_state : int, RandomState instance or None, default=None
        The generator; a RandomState instance is advanced in place (first the
        keys, then the queries), so later draws from it continue the stream.

    Returns
    -------
    keys : ndarray of shape (n_features, m)
        Unit-norm positional keys.
    queries : ndarray of shape (n_heads, m)
        Unit-norm initial queries.

    Raises
    ------
    ValueError
        If ``init="antisymmetric"`` and ``m < n_heads - 1`` (no regular
        simplex fits), or ``init`` is unknown.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.nn import sparse_xor_init
    >>> keys, queries = sparse_xor_init(10, 4, random_state=0)
    >>> keys.shape, queries.shape
    ((10, 4), (2, 4))
    >>> bool(np.allclose(queries[0], -queries[1]))
    True
    >>> _, q = sparse_xor_init(10, 4, n_heads=3, random_state=0)
    >>> np.round(q @ q.T, 3)  # the simplex: off-diagonal -1/(H-1)
    array([[ 1. , -0.5, -0.5],
           [-0.5,  1. , -0.5],
           [-0.5, -0.5,  1. ]])
    """
    if init not in ("antisymmetric", "random"):
        raise ValueError(f"init must be 'antisymmetric' or 'random'; got {init!r}.")
    if init == "antisymmetric" and m < n_heads - 1:
        raise ValueError(
            f"init='antisymmetric' with n_heads={n_heads} needs m >= {n_heads - 1}; got m={m}."
        )
    rng = check_random_state(random_state)
    keys = sphere_keys(n_features, m, rng)
    return keys, initial_queries(n_heads, m, init, rng)
