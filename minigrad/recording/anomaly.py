"""Anomaly mode (``torch.autograd.detect_anomaly``).

While enabled, every new node remembers the stack where its forward op ran,
and the engine checks each gradient a node returns for NaN; the error names the
node and the output, and shows where the forward op was made.
"""

from __future__ import annotations

import warnings


class _State:
    def __init__(self):
        self.enabled = False
        self.check_nan = True


state = _State()


class detect_anomaly:  # noqa: N801  (PyTorch name)
    """Context manager that turns on anomaly detection for autograd.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor(-1.0, requires_grad=True)
        >>> with mg.autograd.detect_anomaly():
        ...     y = x.sqrt()
        ...     try:
        ...         y.backward()
        ...     except RuntimeError as e:
        ...         print(str(e).splitlines()[0])
        Function 'SqrtBackward0' returned nan values in its 0th output.
    """

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan

    def __enter__(self):
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and "
            "should only be enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )
        self._prev = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = True, self.check_nan
        return self

    def __exit__(self, *exc):
        state.enabled, state.check_nan = self._prev
        return False


class set_detect_anomaly:  # noqa: N801  (PyTorch name)
    """Turn anomaly detection on or off (``torch.autograd.set_detect_anomaly``): as a call
    it sets the mode at once; as a context manager it restores the previous mode on exit.

    Example:
        >>> import minigrad as mg
        >>> with mg.autograd.set_detect_anomaly(True):
        ...     print(mg.autograd.is_anomaly_enabled())
        True
        >>> mg.autograd.is_anomaly_enabled()
        False
    """

    def __init__(self, mode: bool, check_nan: bool = True):
        self._prev = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = bool(mode), bool(check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        state.enabled, state.check_nan = self._prev
        return False


def is_anomaly_enabled() -> bool:
    """True inside ``detect_anomaly``."""
    return state.enabled
