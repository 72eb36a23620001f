"""Uniform draws on the unit sphere (the sparse-XOR model's keys and queries).

The public constructor is :func:`skxor.nn.sparse_xor_init`; these are its
samplers, shared with code that must keep importing them.
"""

import numpy as np


def sphere_keys(n_positions, m, rng):
    """``n_positions`` i.i.d. uniform unit vectors in R^m (normalized Gaussians)."""
    keys = rng.standard_normal((n_positions, m))
    norms = np.linalg.norm(keys, axis=1, keepdims=True)
    # A zero Gaussian draw has probability 0; guard anyway against a 0/0.
    norms[norms == 0] = 1.0
    keys /= norms  # in place: keys can be d x m = 10^7 floats
    return keys


def initial_queries(n_heads, m, init, rng):
    """Initial query vectors, shape (n_heads, m); see :func:`sparse_xor_init`."""
    if init == "random" or n_heads == 1:
        return sphere_keys(n_heads, m, rng)
    if n_heads == 2:
        theta = sphere_keys(1, m, rng)[0]
        return np.stack([theta, -theta])
    # Simplex vertices: centred standard basis of R^H, written in an
    # orthonormal basis of the (H-1)-dim subspace orthogonal to (1, .., 1).
    centred = np.eye(n_heads) - 1.0 / n_heads
    basis = np.linalg.svd(centred)[2][: n_heads - 1].T  # (H, H-1)
    vertices = centred @ basis
    vertices /= np.linalg.norm(vertices, axis=1, keepdims=True)
    rotation, _ = np.linalg.qr(rng.standard_normal((m, n_heads - 1)))
    return vertices @ rotation.T
