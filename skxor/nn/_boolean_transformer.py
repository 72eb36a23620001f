"""A small encoder transformer on bit strings (Köver et al. (2026, arXiv 2606.08768)).

Shapes in comments follow one notation: ``B`` strings in a batch, ``N`` bits
per string, ``T`` tokens (``N``, or ``N + 1`` with a CLS token), ``D`` the
model width, ``H`` heads of width ``Dh = D / H`` and ``M`` the MLP width.

The model is put together from its components: the architecture
(``_config``), layer norm (``_layer_norm``), position codes
(``_positional``), attention types (``_attention``), the layer
(``_block``); what reads a model rather than defines it (flip neighbours,
layer-norm blow-up) is in ``_analysis``. This module's length is mostly
the class docstring, the reference for every parameter.
"""

import torch
import torch.nn.functional as F
from torch import nn

from .._utils._bits import largest_power_of_two_at_most
from .._utils._deprecation import renamed_argument
from .._utils._docstrings import fill_doc
from .._utils._torch import seeded_torch
from .._utils._validation import check_count
from ._analysis import _Analysis
from ._block import _Block
from ._common import (
    DEFAULT_EVAL_BATCH,
    DEFAULT_EVAL_FLOATS,
    DEFAULT_EVAL_TOKENS,
    CheckedAttribute,
    check_real,
    check_spins,
)
from ._config import BooleanTransformerConfig
from ._fast_path import layout_refusal
from ._layer_norm import LayerNorm
from ._positional import position_codes


@fill_doc
class BooleanTransformer(_Analysis, nn.Module):
    """Encoder transformer mapping bit strings of length N to one real number.

    Tokens: bit ``b_i`` of the input becomes the token embedding
    ``E[b_i]`` (two learned vectors) plus the position code of slot i
    (learned or sinusoidal). With ``readout="cls"`` a learned CLS vector is
    prepended as token 0; with ``readout="eos"`` a learned end-of-string
    vector is appended as token N + 1 (index N), the recognizer of Köver et
    al. (2026, arXiv 2606.08768). ``n_layers`` layers of bidirectional multi-head
    softmax attention (``softmax(q k^T / sqrt(Dh))``) and a ReLU/GELU MLP
    follow, with residual connections and :class:`LayerNorm` placed before
    each sub-layer (``"pre"``, plus a final norm) or after each residual sum
    (``"post"``). A linear map of the read-out token (the last bit, the
    CLS token or the eos token) gives the output
    ``T(x) = w . y_r + omega``; the Boolean function computed is
    ``T(x) > 0``.

    Recognizer with a margin: with ``margin=xi > 0`` a string is accepted
    when ``T(x) >= xi``, rejected when ``T(x) <= -xi`` and undecided in
    between (:meth:`decide` returns +1 / -1 / 0). With ``margin=0`` (the
    default) :meth:`decide` is +1 where ``T(x) > 0`` and -1 elsewhere, the
    Boolean function above, and no string is undecided. The margin changes
    neither the output nor training; it is how outputs are read by
    :meth:`decide` and :func:`skxor.sensitivity.margin_profile`.

    Input: a (B, N) tensor of **spins** ``x = 1 - 2 b`` (+1 for bit 0, -1
    for bit 1), the library's internal encoding and what
    :func:`skxor.sensitivity.sensitivity_profile` and
    :func:`skxor.boolean.truth_table` feed a torch module; bits convert with
    :meth:`spins_from_bits`. Spins enter the embedding linearly
    (``E[b] = (E[0] + E[1]) / 2 - x (E[1] - E[0]) / 2``), so only +-1 values
    are tokens: any other value (0, 2, NaN, inf, a complex number) raises a
    ValueError or TypeError (one vectorised ``|x| == 1`` test per call).

    The forward pass is batched over strings with no Python loop over
    positions (attention is
    :func:`torch.nn.functional.scaled_dot_product_attention`); the last
    layer computes only the read-out token, which is all the output depends
    on; and without autograd a large batch runs in chunks of
    ``eval_batch_size`` strings, so the truth table on all 2^N strings is
    one call. Without autograd the tokens are gathered from a table of the
    2 T (bit, slot) embeddings, and on the CPU a full layer of at most 32
    tokens runs in torch's fused inference kernel (the one behind
    :class:`torch.nn.TransformerEncoderLayer`'s fast path; ``eps > 0``,
    ReLU or GELU, an even number of heads at least 8 wide), which is faster
    at these lengths; its outputs agree with the autograd pass's to float
    rounding rather than bit for bit.
    ``torch.backends.mha.set_fastpath_enabled(False)`` turns it off.

    Parameters
    ----------
    n_bits : int
        Number of input bits N. (Formerly ``n_positions``; that name still
        works, with a FutureWarning, until the next release.)
    d_model : int, default=64
        Width D; must be divisible by ``n_heads``.
    %(n_layers)s
    %(n_heads)s
    d_mlp : int or None, default=None
        Hidden width of each MLP; None means ``4 * d_model``.
    positional : {"learned", "sinusoidal"}, default="learned"
        Learned position embeddings, or fixed sinusoidal codes.
    norm : {"pre", "post"}, default="pre"
        Layer-norm placement.
    layer_norm_eps : float, default=1e-5
        Stabiliser of every layer norm, ``>= 0``; 0 is handled as described
        in :class:`LayerNorm` (no NaN ever).
    readout : {"last", "cls", "eos"}, default="last"
        Read the output at the last bit's token, at a prepended CLS token or
        at an appended end-of-string token (the recognizer form: position
        N + 1, ``T(x) = w . y_{N+1} + omega``). The CLS and eos vectors are
        learned; with ``positional="sinusoidal"`` the eos token gets the
        fixed code of position N + 1, so the positions stay fixed.
    activation : {"relu", "gelu", "tanh", "logistic", "square", "identity"}, \
default="relu"
        MLP non-linearity (:data:`skxor.nn.ACTIVATIONS`).
    attention : str, default="softmax"
        Attention type of every layer, a name of :func:`skxor.nn.attention_names`:
        the weights over the keys of the scores ``q k^T / sqrt(Dh)``.
        ``"softmax"`` is the usual transformer; another type (``"linear"``,
        ``"erf"`` or one added by :func:`skxor.nn.register_attention`) runs
        step by step (no fused kernel, and :meth:`flip_neighbours` evaluates
        every flipped string).
    init : {"default", "normal", "uniform", "xavier_uniform", \
"xavier_normal"}, default="default"
        ``"default"``: PyTorch's own initialization of each layer
        (Kaiming-uniform linear maps, N(0, 1) embeddings, layer-norm gain 1
        and bias 0; the CLS / eos vector N(0, 1)). ``"normal"``: every
        parameter, layer-norm gains and biases included, i.i.d.
        ``N(0, init_scale^2)``. ``"uniform"``: every parameter i.i.d.
        ``U[-init_scale, init_scale]``. These two draw a point from a density
        on the whole parameter space, the setting of the measure-theoretic
        results of Köver et al. (2026, arXiv 2606.08768) (its "Gaussian" and "uniform" schemes).
        ``"xavier_uniform"`` / ``"xavier_normal"`` (their
        Xavier-uniform and Xavier-Gaussian): every weight matrix W of shape
        (fan_out, fan_in) i.i.d. ``U[-a, a]`` with
        ``a = init_scale * sqrt(6 / (fan_in + fan_out))``, or
        ``N(0, init_scale^2 * 2 / (fan_in + fan_out))``
        (:func:`torch.nn.init.xavier_uniform_` / ``xavier_normal_`` with gain
        ``init_scale``). The weight matrices are the query, key and value
        maps (each its own D x D matrix), the attention output map, the two
        MLP maps, the read-out ``w`` (1 x D), the token embedding (2 x D),
        the learned positions (T x D) and the CLS / eos vector (1 x D); all
        biases (``omega`` included) are 0 and layer-norm gains 1 (the usual
        Glorot-Bengio convention; our choice, the paper does not say).
    init_scale : float, default=1.0
        sigma of ``"normal"``, half-width of ``"uniform"``, gain of the
        Xavier schemes; unused by ``"default"``.
    margin : float, default=0.0
        Margin xi ``>= 0`` of :meth:`decide` (see above). Settable after
        construction; a value that is not a finite number >= 0 is refused
        there (TypeError / ValueError naming ``margin``).
    seed : int or None, default=None
        Seeds the initialization without touching torch's global RNG. None
        draws from the global RNG, as torch modules usually do.

    Attributes
    ----------
    config : BooleanTransformerConfig
        The architecture (every parameter above but ``margin`` and ``seed``).
    n_tokens : int
        Sequence length T (``N``, or ``N + 1`` with a CLS or eos token).
    n_parameters : int
        Number of trainable parameters.
    eval_batch_size : int
        Strings per chunk of a no-grad forward pass: the largest power of
        two of strings, at most 1024, whose chunk holds at most 2^18 tokens
        and at most 2^20 floats of the widest activation
        (``T * max(3 D, M)`` per string), so that a chunk stays in cache
        (128 strings at N = 20, D = 64; 512 at N = 20, D = 16); settable
        to any integer >= 1 (anything else is a TypeError / ValueError
        naming ``eval_batch_size``).

    Examples
    --------
    >>> from skxor.nn import BooleanTransformer
    >>> model = BooleanTransformer(6, d_model=16, n_layers=2, n_heads=2,
    ...                            layer_norm_eps=0.0, init="normal", seed=0)
    >>> spins = BooleanTransformer.spins_from_bits([[0, 1, 1, 0, 0, 1], [1, 1, 1, 1, 1, 1]])
    >>> model(spins).shape
    torch.Size([2])
    >>> from skxor.sensitivity import sensitivity_profile
    >>> prof = sensitivity_profile(model, 6)  # all 2**6 strings, one forward pass
    >>> int(prof.counts.sum())
    64
    """

    def __init__(
        self,
        n_bits=None,
        d_model=64,
        n_layers=2,
        n_heads=4,
        d_mlp=None,
        *,
        positional="learned",
        norm="pre",
        layer_norm_eps=1e-5,
        readout="last",
        activation="relu",
        attention="softmax",
        init="default",
        init_scale=1.0,
        margin=0.0,
        seed=None,
        n_positions=None,
    ):
        super().__init__()
        n_bits = renamed_argument(n_bits, n_positions, "n_bits", "n_positions", "BooleanTransformer")
        config = BooleanTransformerConfig.from_params(
            n_bits=n_bits, d_model=d_model, n_layers=n_layers, n_heads=n_heads, d_mlp=d_mlp,
            positional=positional, norm=norm, layer_norm_eps=layer_norm_eps, readout=readout,
            activation=activation, attention=attention, init=init, init_scale=init_scale,
        )
        self._setup(config, margin, seed)

    @classmethod
    def from_config(cls, config, *, margin=0.0, seed=None):
        """The model of an architecture already checked: ``config`` is used as it is.

        Parameters
        ----------
        config : BooleanTransformerConfig
            Built by :meth:`BooleanTransformerConfig.from_params
            <skxor.nn.BooleanTransformerConfig.from_params>` or from
            parameters validated elsewhere (as the classifier's are).
        margin : float, default=0.0
        seed : int or None, default=None

        Returns
        -------
        model : BooleanTransformer

        Examples
        --------
        >>> from skxor.nn import BooleanTransformer, BooleanTransformerConfig
        >>> config = BooleanTransformerConfig(n_bits=5, d_model=8, n_heads=2)
        >>> model = BooleanTransformer.from_config(config, seed=0)
        >>> model.config is config, model.d_mlp
        (True, 32)
        """
        if not isinstance(config, BooleanTransformerConfig):
            raise TypeError(
                f"config must be a BooleanTransformerConfig; got {type(config).__name__}."
            )
        model = cls.__new__(cls)
        nn.Module.__init__(model)
        model._setup(config, margin, seed)
        return model

    def _setup(self, config, margin, seed):
        """Set the attributes from ``config`` (not checked again) and draw the parameters."""
        self.config = config
        for name in config.parameter_names():
            setattr(self, name, getattr(config, name))
        self.d_mlp = config.mlp_width
        self.margin = margin
        if seed is not None:
            check_count(seed, "seed", 0)
        self.seed = seed
        self.n_tokens = config.n_tokens
        # Chunks of at most DEFAULT_EVAL_TOKENS tokens bound the activations'
        # memory, and of at most DEFAULT_EVAL_FLOATS floats of the widest
        # activation keep them cache-sized. A power of two: torch's kernels
        # then see rows in the same alignment as in chunks of 1024, so every
        # output keeps its bits.
        width = max(3 * self.d_model, self.d_mlp)
        fits = max(1, min(DEFAULT_EVAL_TOKENS // self.n_tokens,
                          DEFAULT_EVAL_FLOATS // (self.n_tokens * width)))
        self.eval_batch_size = min(DEFAULT_EVAL_BATCH, largest_power_of_two_at_most(fits))

        if seed is None:
            self._build()
        else:
            with seeded_torch(seed):
                self._build()

    # margin and eval_batch_size are documented as settable after
    # construction: every value set is checked, so decide and forward never
    # see a bad value.
    margin = CheckedAttribute(
        lambda value, name: check_real(value, name, positive=False),
        "Margin xi ``>= 0`` of :meth:`decide`; settable (a finite number >= 0).",
    )
    eval_batch_size = CheckedAttribute(
        lambda value, name: check_count(value, name, 1),
        "Strings per chunk of a no-grad forward pass; settable (an integer >= 1).",
    )

    def __setstate__(self, state):
        # Modules pickled before margin and eval_batch_size were checked
        # properties hold them as plain attributes.
        for name in ("margin", "eval_batch_size"):
            if name in state:
                state["_" + name] = state.pop(name)
        state.setdefault("_eval_batch_size", DEFAULT_EVAL_BATCH)
        if "config" not in state:  # pickled before the configuration object
            state.setdefault("attention", "softmax")
            params = {name: state[name] for name in BooleanTransformerConfig.parameter_names()}
            state["config"] = BooleanTransformerConfig(**params)
        super().__setstate__(state)

    def _build(self):
        D = self.d_model
        self.token_embed = nn.Embedding(2, D)  # row b is the embedding of bit b
        codes = position_codes(self.positional, self.n_tokens, D)
        if isinstance(codes, nn.Parameter):
            self.pos_embed = codes
        else:
            self.register_buffer("pos_embed", codes)
        if self.readout == "cls":
            self.cls = nn.Parameter(torch.randn(D))
        elif self.readout == "eos":
            self.eos = nn.Parameter(torch.randn(D))
        self.layers = nn.ModuleList(_Block(self.config) for _ in range(self.n_layers))
        if self.norm == "pre":
            self.ln_final = LayerNorm(D, self.layer_norm_eps)
        self.unembed = nn.Linear(D, 1)
        if self.init in ("normal", "uniform"):
            with torch.no_grad():
                for p in self.parameters():
                    if self.init == "normal":
                        p.normal_(0.0, self.init_scale)
                    else:
                        p.uniform_(-self.init_scale, self.init_scale)
        elif self.init.startswith("xavier"):
            self._xavier_init()

    def _xavier_init(self):
        """Xavier (Glorot) weights with gain ``init_scale``; biases 0, LN gains 1."""
        draw = nn.init.xavier_uniform_ if self.init == "xavier_uniform" else nn.init.xavier_normal_
        D = self.d_model
        with torch.no_grad():
            matrices = [self.token_embed.weight, self.unembed.weight]
            if isinstance(self.pos_embed, nn.Parameter):
                matrices.append(self.pos_embed)
            for name in ("cls", "eos"):
                if hasattr(self, name):
                    matrices.append(getattr(self, name).view(1, D))
            for layer in self.layers:
                # Query, key and value maps are D x D blocks of one fused matrix.
                matrices += [layer.qkv.weight[i * D : (i + 1) * D] for i in range(3)]
                matrices += [layer.attn_out.weight, layer.mlp_in.weight, layer.mlp_out.weight]
            for w in matrices:
                draw(w, gain=self.init_scale)
            for name, p in self.named_parameters():
                if name.endswith("bias"):
                    p.zero_()
                elif name.endswith(("ln_attn.weight", "ln_mlp.weight", "ln_final.weight")):
                    p.fill_(1.0)

    def _fast_path_layout_refusal(self):
        """Why the submodules are not those :meth:`_build` makes, or None (see
        :func:`skxor.nn.fast_path_refusal`): the fast paths read them directly."""
        layout = {"token_embed": nn.Embedding, "layers": nn.ModuleList, "unembed": nn.Linear}
        if self.norm == "pre":
            layout["ln_final"] = LayerNorm
        layout.update({f"layers.{i}": _Block for i in range(self.n_layers)})
        reason = layout_refusal(self, layout)
        if reason is None and (len(self.layers) != self.n_layers
                               or self.unembed.out_features != 1):
            reason = "the layers or the read-out are not those of the model's configuration"
        for i, layer in enumerate(self.layers if reason is None else ()):
            reason = layer._fast_path_layout_refusal(self.config)
            if reason is not None:
                return f"layers.{i}.{reason}"
        return reason

    @property
    def layer_norm_names(self):
        """Names of the layer norms, in the order the input meets them."""
        names = [f"layers.{i}.{ln}" for i in range(self.n_layers) for ln in ("ln_attn", "ln_mlp")]
        return names + (["ln_final"] if self.norm == "pre" else [])

    @staticmethod
    def spins_from_bits(bits):
        """Spins ``1 - 2 b`` (bit 0 -> +1, bit 1 -> -1) of 0/1 bits, as float."""
        return 1 - 2 * torch.as_tensor(bits).float()

    def _check_spins(self, spins):
        return check_spins(spins, self.n_bits, type(self).__name__)

    def _bit_embeddings(self, x):
        """Embeddings (..., D) of spins x (..., 1): E[b] for bit b = (1 - x) / 2."""
        E = self.token_embed.weight  # (2, D): row b embeds bit b
        # E[b] = (E[0] + E[1]) / 2 - x (E[1] - E[0]) / 2: one broadcast, no gather.
        return (E[0] + E[1]) / 2 - x * ((E[1] - E[0]) / 2)

    def _token_table(self):
        """Every token the first layer can see: (2 T, D), row 2 t + b for bit b at slot t.

        A token depends on its bit and its slot only, so without autograd a
        chunk's (B, T, D) tokens are one gather from these 2 T rows rather
        than three passes of arithmetic over them. The rows come from the
        same formula as the per-string path, so every bit is the same. (The
        CLS or eos slot has its vector in both rows.)
        """
        E = self.token_embed.weight
        spins = torch.tensor([[1.0], [-1.0]], dtype=E.dtype, device=E.device)  # bits 0, 1
        tokens = self._bit_embeddings(spins).expand(self.n_tokens, 2, -1).clone()  # (T, 2, D)
        if self.readout == "cls":
            tokens[0] = self.cls
        elif self.readout == "eos":
            tokens[-1] = self.eos
        return (tokens + self.pos_embed[:, None]).flatten(0, 1)  # (2T, D)

    def _run(self, spins, full=False, record=None, table=None):
        """Output (B,) for spins (B, N); ``full`` keeps every token to the end.

        ``table`` (from :meth:`_token_table`, no autograd) makes the tokens by
        a gather instead of arithmetic.
        """
        E = self.token_embed.weight
        r = 0 if self.readout == "cls" else self.n_tokens - 1
        if table is not None:
            bits = (spins < 0).to(device=E.device, dtype=torch.long)  # (B, N)
            if self.readout != "last":  # the CLS / eos slot: row 0 of its pair
                bits = F.pad(bits, (1, 0) if self.readout == "cls" else (0, 1))
            slots = torch.arange(0, 2 * self.n_tokens, 2, device=E.device)
            h = F.embedding(bits + slots, table)  # (B, T, D)
        else:
            x = spins.to(device=E.device, dtype=E.dtype).unsqueeze(-1)  # (B, N, 1)
            h = self._bit_embeddings(x)  # (B, N, D)
            if self.readout == "cls":
                h = torch.cat([self.cls.expand(h.shape[0], 1, -1), h], dim=1)  # (B, T, D)
            elif self.readout == "eos":
                h = torch.cat([h, self.eos.expand(h.shape[0], 1, -1)], dim=1)  # (B, T, D)
            h = h + self.pos_embed  # (B, T, D)
        return self._layers_from(h, 0, r, full, record)

    def _layers_from(self, h, start, r, full=False, record=None):
        """Layers ``start ..`` on tokens h (B, T, D), the final norm and the read-out at r: (B,)."""
        for i in range(start, self.n_layers):
            layer = self.layers[i]
            if i == self.n_layers - 1 and not full:
                h = layer(h, query=r, record=record, name=f"layers.{i}.")  # (B, 1, D)
                r = 0
            else:
                h = layer(h, record=record, name=f"layers.{i}.")  # (B, T, D)
        if self.norm == "pre":
            if record is not None:
                record["ln_final"].append(self.ln_final.inverse_std(h).detach())
            h = self.ln_final(h)
        return self.unembed(h[:, r]).squeeze(-1)  # (B,)

    def forward(self, spins):
        """Real output for each string.

        Without autograd (``torch.no_grad``/``inference_mode``) a large batch
        is processed ``eval_batch_size`` strings at a time, which bounds the
        activations' memory and keeps them cache-sized; the result agrees
        with one pass to float rounding (4.8e-7 measured for outputs of
        order 1 in float32), not bit for bit, so the sign of an output that
        close to 0 can depend on the chunking (the sensitivity tools decide
        such outputs by a one-string evaluation; see
        :mod:`skxor.sensitivity`). Short strings then run their full layers in torch's
        fused inference kernel (see the class notes), so outputs agree with
        the autograd pass's to float rounding.

        Parameters
        ----------
        spins : Tensor of shape (B, N)
            Spins +1 (bit 0) / -1 (bit 1), any dtype.

        Returns
        -------
        out : Tensor of shape (B,)
            ``out > 0`` is the Boolean value computed.
        """
        spins = self._check_spins(spins)
        if torch.is_grad_enabled():
            return self._run(spins)
        size, table = self.eval_batch_size, self._token_table()
        if spins.shape[0] <= size:
            return self._run(spins, table=table)
        return torch.cat([self._run(spins[i : i + size], table=table)
                          for i in range(0, spins.shape[0], size)])

    @torch.no_grad()
    @fill_doc
    def decide(self, spins):
        """Recognizer decision per string: +1 accept, -1 reject, 0 undecided.

        With ``margin = xi > 0``: +1 where ``T(x) >= xi``, -1 where
        ``T(x) <= -xi``, 0 in between. With ``margin = 0``: +1 where
        ``T(x) > 0``, else -1 (the Boolean function ``T(x) > 0``; nothing is
        undecided). It reads the outputs of this call as they are, so an
        output within float rounding of a threshold can be decided
        differently in another batch; :func:`skxor.sensitivity.margin_profile`
        decides such outputs by a one-string evaluation instead.

        Parameters
        ----------
        %(spins)s

        Returns
        -------
        decision : Tensor of shape (B,), dtype int8
            On the module's device.

        Raises
        ------
        ValueError
            When an output is NaN or infinite (for example NaN weights).

        Examples
        --------
        >>> import torch
        >>> from skxor.nn import BooleanTransformer
        >>> model = BooleanTransformer(4, d_model=8, n_heads=2, readout="eos",
        ...                            margin=0.5, seed=0)
        >>> model.decide(torch.ones(3, 4)).dtype
        torch.int8
        """
        out = self(spins)
        bad = ~torch.isfinite(out)
        if bad.any():
            # NaN would read as "reject" at margin 0 and "undecided" above it.
            raise ValueError(
                f"The model returned non-finite outputs (NaN or inf) for {int(bad.sum())} of "
                f"{out.numel()} strings; its decision is undefined there (check its weights)."
            )
        if self.margin == 0:
            return torch.where(out > 0, 1, -1).to(torch.int8)
        decision = (out >= self.margin).to(torch.int8) - (out <= -self.margin).to(torch.int8)
        return decision

    def extra_repr(self):
        return (
            f"n_bits={self.n_bits}, readout={self.readout!r}, "
            f"positional={self.positional!r}, norm={self.norm!r}, "
            f"init={self.init!r}"
            + (f", attention={self.attention!r}" if self.attention != "softmax" else "")
            + (f", margin={self.margin}" if self.margin else "")
        )
