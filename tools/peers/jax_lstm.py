"""ADBench's LSTM in JAX, written from the problem definition in the ADBench data
folder's README (float64; `lax.scan` over the characters, one `jax.grad`).

The inputs are those of `bench-suite/adbench/lstm.fut`, in entry order:
`main_params [2l][4b], extra_params [3][b], state [2l][b], sequence [c][b]`. `build`
returns jitted functions computing the loss and its gradient, ∂main_params then
∂extra_params flattened into one vector (as `tools/adbench/lstm.py` orders it).
"""

import jax
import jax.numpy as jnp
from jax import lax


def loss(main, extra, state, sequence):
    """The prediction loss over the sequence."""
    layers = main.shape[0] // 2
    b = sequence.shape[1]
    weights = main[0::2].reshape(layers, 4, b)
    biases = main[1::2].reshape(layers, 4, b)

    def step(carry, chars):
        hidden, cell = carry
        current, following = chars
        x = current * extra[0]
        new_hidden, new_cell = [], []
        for i in range(layers):
            w, bias = weights[i], biases[i]
            forget = jax.nn.sigmoid(x * w[0] + bias[0])
            ingate = jax.nn.sigmoid(hidden[i] * w[1] + bias[1])
            outgate = jax.nn.sigmoid(x * w[2] + bias[2])
            change = jnp.tanh(hidden[i] * w[3] + bias[3])
            c = cell[i] * forget + ingate * change
            h = outgate * jnp.tanh(c)
            new_hidden.append(h)
            new_cell.append(c)
            x = h
        y = x * extra[1] + extra[2]
        log_prob = y - jnp.log(2.0 + jnp.sum(jnp.exp(y)))
        return (jnp.stack(new_hidden), jnp.stack(new_cell)), jnp.sum(log_prob * following)

    _, terms = lax.scan(step, (state[0::2], state[1::2]), (sequence[:-1], sequence[1:]))
    return -jnp.sum(terms) / ((sequence.shape[0] - 1) * b)


def _gradient(main, extra, state, sequence):
    d_main, d_extra = jax.grad(loss, argnums=(0, 1))(main, extra, state, sequence)
    return jnp.concatenate([d_main.ravel(), d_extra.ravel()])


def build():
    """(objective, jacobian), both jitted; they take the entry's inputs."""
    return jax.jit(loss), jax.jit(_gradient)
