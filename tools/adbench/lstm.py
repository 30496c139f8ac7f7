"""ADBench's LSTM: parsing, generation and a NumPy reference.

The inputs of `bench-suite/adbench/lstm.fut`, in entry order, are
`main_params [2l][4b], extra_params [3][b], state [2l][b], sequence [c][b]`. The
objective is the prediction loss the data folder's README defines; the Jacobian is
its gradient with respect to the main parameters (flattened), then the extra
parameters (flattened), as one array. The model is written once over plain arrays and
forward-mode dual numbers (`_Dual`); the Jacobian seeds every parameter at once.
"""

import numpy as np

from textfile import Tokens, format_rows

TEST_FILES = [
    ("lstm_small", None, {"l": 2, "c": 6, "b": 5}),
    ("lstm_l2_c1024", "lstm/lstm_l2_c1024.txt", {"l": 2, "c": 1024, "b": 14}),
]

SELFCHECK_SIZES = {"l": 2, "c": 5, "b": 4}

PARAMS = [0, 1]


def parse(path) -> list:
    """The entry's inputs from an ADBench LSTM file."""
    t = Tokens(path)
    layers = t.positive("the number of layers l")
    count = t.positive("the sequence length c")
    bits = t.positive("the bits per character b")
    main = t.floats((2 * layers, 4 * bits), "a main parameter")
    extra = t.floats((3, bits), "an extra parameter")
    state = t.floats((2 * layers, bits), "a state value")
    sequence = t.floats((count, bits), "a sequence bit")
    t.end()
    return [main, extra, state, sequence]


def generate(rng, l: int, c: int, b: int) -> str:  # noqa: E741 (the README's name)
    """A synthetic LSTM file: parameters and state ~ U(0,1), the sequence random bits
    (each 1 with probability 1/4, about as often as in ADBench's text-derived files)."""
    if min(l, b) < 1 or c < 2:
        raise ValueError(f"lstm: l and b must be at least 1 and c at least 2, found {l}, {c}, {b}")
    main = rng.uniform(0.0, 1.0, (2 * l, 4 * b))
    extra = rng.uniform(0.0, 1.0, (3, b))
    state = rng.uniform(0.0, 1.0, (2 * l, b))
    sequence = (rng.uniform(0.0, 1.0, (c, b)) < 0.25).astype(np.int64)
    return (
        f"{l} {c} {b}\n\n"
        + format_rows(main, "%.17g")
        + "\n"
        + format_rows(extra, "%.17g")
        + "\n"
        + format_rows(state, "%.17g")
        + "\n"
        + format_rows(sequence, "%d")
    )


def _unpack(inputs):
    if len(inputs) != 4:
        raise ValueError(f"lstm: expected 4 input values, found {len(inputs)}")
    main, extra, state, sequence = (np.asarray(v, dtype=np.float64) for v in inputs)
    if any(v.ndim != 2 for v in (main, extra, state, sequence)):
        raise ValueError("lstm: every input must be a two-dimensional array")
    layers2, b4 = main.shape
    b = extra.shape[1]
    if layers2 % 2 or b4 != 4 * b or state.shape != (layers2, b) or sequence.shape[1:] != (b,):
        raise ValueError("lstm: inconsistent input shapes")
    if sequence.shape[0] < 2:
        raise ValueError("lstm: the sequence needs at least two characters")
    return main, extra, state, sequence


class _Dual:
    """A value array with its derivatives with respect to P parameters (a tangent
    array of the value's shape plus a last axis of length P). Plain arrays and numbers
    mixed in are constants."""

    # Makes NumPy arrays hand `array * dual` and the like to the methods below.
    __array_ufunc__ = None

    def __init__(self, value, tangent):
        self.value = np.asarray(value, dtype=np.float64)
        self.tangent = np.asarray(tangent, dtype=np.float64)

    @staticmethod
    def seed(value, offset: int, count: int) -> "_Dual":
        """`value` as the parameters `offset .. offset + value.size` of `count`."""
        value = np.asarray(value, dtype=np.float64)
        tangent = np.zeros((value.size, count))
        tangent[np.arange(value.size), offset + np.arange(value.size)] = 1.0
        return _Dual(value, tangent.reshape(value.shape + (count,)))

    def __getitem__(self, index):
        return _Dual(self.value[index], self.tangent[index])

    def __add__(self, other):
        if isinstance(other, _Dual):
            return _Dual(self.value + other.value, self.tangent + other.tangent)
        value = self.value + np.asarray(other, dtype=np.float64)
        return _Dual(value, np.broadcast_to(self.tangent, value.shape + self.tangent.shape[-1:]))

    __radd__ = __add__

    def __neg__(self):
        return _Dual(-self.value, -self.tangent)

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        if isinstance(other, _Dual):
            return _Dual(
                self.value * other.value,
                self.tangent * other.value[..., None] + other.tangent * self.value[..., None],
            )
        other = np.asarray(other, dtype=np.float64)
        return _Dual(self.value * other, self.tangent * other[..., None])

    __rmul__ = __mul__

    def total(self) -> "_Dual":
        """The sum of all elements."""
        return _Dual(self.value.sum(), self.tangent.reshape(-1, self.tangent.shape[-1]).sum(0))


def _elementwise(f, df):
    """`f` on plain arrays and duals; `df(x, f(x))` is its derivative."""

    def apply(x):
        if isinstance(x, _Dual):
            y = f(x.value)
            return _Dual(y, x.tangent * df(x.value, y)[..., None])
        return f(np.asarray(x, dtype=np.float64))

    return apply


_exp = _elementwise(np.exp, lambda x, y: y)
_log = _elementwise(np.log, lambda x, y: 1.0 / x)
_tanh = _elementwise(np.tanh, lambda x, y: 1.0 - y * y)
_sigmoid = _elementwise(lambda x: 1.0 / (1.0 + np.exp(-x)), lambda x, y: y * (1.0 - y))


def _total(x):
    return x.total() if isinstance(x, _Dual) else np.sum(x)


def _loss(main, extra, state, sequence):
    """The loss, over plain arrays or duals (main and extra may be either)."""
    layers = main.value.shape[0] // 2 if isinstance(main, _Dual) else main.shape[0] // 2
    b = sequence.shape[1]
    hidden = [state[2 * i] for i in range(layers)]
    cell = [state[2 * i + 1] for i in range(layers)]
    total = 0.0
    for t in range(sequence.shape[0] - 1):
        x = sequence[t] * extra[0]
        for i in range(layers):
            w = main[2 * i]
            bias = main[2 * i + 1]
            forget = _sigmoid(x * w[0:b] + bias[0:b])
            ingate = _sigmoid(hidden[i] * w[b : 2 * b] + bias[b : 2 * b])
            outgate = _sigmoid(x * w[2 * b : 3 * b] + bias[2 * b : 3 * b])
            change = _tanh(hidden[i] * w[3 * b : 4 * b] + bias[3 * b : 4 * b])
            cell[i] = cell[i] * forget + ingate * change
            hidden[i] = outgate * _tanh(cell[i])
            x = hidden[i]
        y = x * extra[1] + extra[2]
        norm = _log(2.0 + _total(_exp(y)))
        total = total + _total((y - norm) * sequence[t + 1])
    return total * (-1.0 / ((sequence.shape[0] - 1) * b))


def objective(inputs) -> list:
    """The loss, as one f64."""
    main, extra, state, sequence = _unpack(inputs)
    return [np.float64(_loss(main, extra, state, sequence))]


def jacobian(inputs) -> list:
    """The gradient: ∂main_params then ∂extra_params, flattened, as one array."""
    main, extra, state, sequence = _unpack(inputs)
    total = main.size + extra.size
    loss = _loss(
        _Dual.seed(main, 0, total),
        _Dual.seed(extra, main.size, total),
        state,
        sequence,
    )
    return [np.array(loss.tangent, dtype=np.float64)]
