"""Reading ADBench's whitespace-separated text files token by token.

Every read names what it expects, so a malformed file gives a message with the file
name, the line and what was wanted instead of a Python traceback.
"""

import numpy as np


class Tokens:
    """The whitespace-separated tokens of a text file, read in order."""

    def __init__(self, path, text=None):
        self.path = str(path)
        if text is None:
            with open(path, encoding="ascii", errors="replace") as f:
                text = f.read()
        self._tokens = []
        for number, line in enumerate(text.splitlines(), start=1):
            for tok in line.split():
                self._tokens.append((tok, number))
        self._pos = 0

    def _where(self) -> str:
        if self._pos < len(self._tokens):
            return f"{self.path}:{self._tokens[self._pos][1]}"
        last = self._tokens[-1][1] if self._tokens else 1
        return f"{self.path}:{last}"

    def error(self, message: str) -> ValueError:
        """A `ValueError` for the current position."""
        return ValueError(f"{self._where()}: {message}")

    def _next(self, what: str) -> str:
        if self._pos >= len(self._tokens):
            raise self.error(f"expected {what}, found the end of the file")
        return self._tokens[self._pos][0]

    def int(self, what: str) -> int:
        """The next token as an integer."""
        tok = self._next(what)
        try:
            value = int(tok)
        except ValueError:
            raise self.error(f"expected {what} (an integer), found {tok!r}") from None
        self._pos += 1
        return value

    def float(self, what: str) -> float:
        """The next token as a float."""
        tok = self._next(what)
        try:
            value = float(tok)
        except ValueError:
            raise self.error(f"expected {what} (a number), found {tok!r}") from None
        self._pos += 1
        return value

    def floats(self, shape, what: str) -> np.ndarray:
        """The next `prod(shape)` tokens as a float64 array of that shape."""
        count = int(np.prod(shape))
        out = np.empty(count, dtype=np.float64)
        for i in range(count):
            out[i] = self.float(what)
        return out.reshape(shape)

    def positive(self, what: str) -> int:
        """The next token as an integer that must be at least 1."""
        value = self.int(what)
        if value < 1:
            self._pos -= 1
            raise self.error(f"{what} must be at least 1, found {value}")
        return value

    def end(self) -> None:
        """Fails unless every token has been read."""
        if self._pos < len(self._tokens):
            raise self.error(f"unexpected {self._tokens[self._pos][0]!r} after the data")


def format_rows(rows, fmt: str) -> str:
    """Rows of numbers as text, one row a line, values separated by spaces."""
    return "".join(" ".join(fmt % v for v in np.atleast_1d(row)) + "\n" for row in rows)
