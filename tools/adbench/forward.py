"""Forward-mode automatic differentiation in NumPy for the BA and hand references.

A `Dual` holds a value array of some shape S and its tangents in K directions at
once, an array of shape (K,) + S (directions first, so that a tangent is a whole
array of the value's shape). Arithmetic, the functions below and matrix products
propagate the tangents exactly (no finite differences), so one evaluation of a
function on `Dual` inputs seeded with K unit directions gives K columns of its
Jacobian. Plain NumPy arrays and Python numbers mix freely with `Dual`s as constants.
"""

import numpy as np


class Dual:
    """A value of shape S with tangents of shape (K,) + S."""

    __slots__ = ("val", "tan")
    __array_ufunc__ = None  # NumPy defers `ndarray op Dual` to the Dual operators.

    def __init__(self, val, tan):
        self.val = np.asarray(val, dtype=np.float64)
        self.tan = np.asarray(tan, dtype=np.float64)
        if self.tan.shape[1:] != self.val.shape:
            raise ValueError(
                f"tangent shape {self.tan.shape} does not extend value shape {self.val.shape}"
            )

    @property
    def directions(self) -> int:
        """K, the number of tangent directions."""
        return self.tan.shape[0]

    @property
    def shape(self):
        """The value's shape."""
        return self.val.shape

    def _tangent(self, shape):
        """The tangents broadcast to a value shape `shape` (axes added on the left)."""
        extra = len(shape) - self.val.ndim
        t = self.tan.reshape((self.directions,) + (1,) * extra + self.val.shape)
        return np.broadcast_to(t, (self.directions,) + tuple(shape))

    def __add__(self, other):
        if isinstance(other, Dual):
            val = self.val + other.val
            return Dual(val, self._tangent(val.shape) + other._tangent(val.shape))
        val = self.val + np.asarray(other)
        return Dual(val, self._tangent(val.shape).copy())

    __radd__ = __add__

    def __neg__(self):
        return Dual(-self.val, -self.tan)

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        if isinstance(other, Dual):
            val = self.val * other.val
            tan = self._tangent(val.shape) * other.val + self.val * other._tangent(val.shape)
            return Dual(val, tan)
        c = np.asarray(other)
        val = self.val * c
        return Dual(val, self._tangent(val.shape) * c)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, Dual):
            return self * other.reciprocal()
        return self * (1.0 / np.asarray(other, dtype=np.float64))

    def __rtruediv__(self, other):
        return self.reciprocal() * other

    def reciprocal(self) -> "Dual":
        """1 / self."""
        r = 1.0 / self.val
        return Dual(r, -self.tan * (r * r))

    def __getitem__(self, idx):
        if not isinstance(idx, tuple):
            idx = (idx,)
        return Dual(self.val[idx], self.tan[(slice(None),) + idx])

    def __matmul__(self, other):
        if isinstance(other, Dual):
            val = self.val @ other.val
            return Dual(val, self.tan @ other.val + _left_product(self.val, other))
        c = np.asarray(other)
        return Dual(self.val @ c, self.tan @ c)

    def __rmatmul__(self, other):
        c = np.asarray(other)
        return Dual(c @ self.val, _left_product(c, self))

    def reshape(self, *shape) -> "Dual":
        """The same elements in another shape."""
        val = self.val.reshape(*shape)
        return Dual(val, self.tan.reshape((self.directions,) + val.shape))

    def swapaxes(self, a: int, b: int) -> "Dual":
        """Axes `a` and `b` of the value exchanged."""
        a %= self.val.ndim
        b %= self.val.ndim
        return Dual(np.swapaxes(self.val, a, b), np.swapaxes(self.tan, a + 1, b + 1))

    def sum(self, axis) -> "Dual":
        """The sum over value axis `axis`."""
        axis %= self.val.ndim
        return Dual(self.val.sum(axis=axis), self.tan.sum(axis=axis + 1))


def _left_product(c, x: Dual) -> np.ndarray:
    """The tangents of `c @ x` for a constant `c`: a vector `x` has its tangents
    in rows, so they multiply from the right by `c` transposed."""
    if x.val.ndim == 1:
        return x.tan @ np.swapaxes(c, -1, -2)
    return c @ x.tan


def value(x):
    """The value of a `Dual`, or `x` itself."""
    return x.val if isinstance(x, Dual) else x


def _unary(x, f, df):
    if isinstance(x, Dual):
        return Dual(f(x.val), x.tan * df(x.val))
    return f(x)


def sin(x):
    """sin, on a `Dual` or an array."""
    return _unary(x, np.sin, np.cos)


def cos(x):
    """cos, on a `Dual` or an array."""
    return _unary(x, np.cos, lambda v: -np.sin(v))


def sqrt(x):
    """The square root, on a `Dual` or an array."""
    return _unary(x, np.sqrt, lambda v: 0.5 / np.sqrt(v))


def stack(items, axis: int = 0):
    """`numpy.stack` of values that may be `Dual`s, constants or a mix."""
    duals = [x for x in items if isinstance(x, Dual)]
    if not duals:
        return np.stack([np.asarray(x, dtype=np.float64) for x in items], axis=axis)
    k = duals[0].directions
    shape = np.broadcast_shapes(*(np.shape(value(x)) for x in items))
    vals = [np.broadcast_to(value(x), shape) for x in items]
    tans = [
        x._tangent(shape) if isinstance(x, Dual) else np.zeros((k,) + tuple(shape))
        for x in items
    ]
    val = np.stack(vals, axis=axis)
    axis %= val.ndim
    return Dual(val, np.stack(tans, axis=axis + 1))
