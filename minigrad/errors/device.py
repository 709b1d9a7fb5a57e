"""Messages of devices (``minigrad.device``, ``device=``, ``.to(...)``, ``set_default_device``).

Malformed device strings get PyTorch's own messages (``torch.device("gpu")`` and
``mg.device("gpu")`` say the same thing); a well-formed device that is not the CPU gets
one message everywhere, whichever function it reached.
"""

CPU_ONLY = "minigrad computes on the CPU only; got device={got}"
NO_META = (
    " (minigrad has no meta tensors; a module that only gives functional_call its structure, as"
    " in model ensembling, can stay on the CPU: the tensors you pass replace its own)"
)
EMPTY = "Device string must not be empty"
INVALID = "Invalid device string: '{got}'"
UNKNOWN_TYPE = "Expected one of {types} device type at start of device string: {got}"
NEGATIVE_INDEX = "Device index must not be negative"
INDEX_TWICE = "type (string) must not include an index because index was passed explicitly: {got}"
INDEX_TYPE = "device(): argument 'index' (position 2) must be int, not {got}"
DEVICE_TYPE = (
    "device(): expected a device string such as 'cpu' or 'cpu:0', a minigrad.device or an "
    "int, got {got}"
)
ARGUMENT_TYPE = "{where}: argument 'device' must be a device (e.g. 'cpu'), not {got}"
TO_ARGS = (
    "to() received an invalid combination of arguments - got ({got}), but expected one of:\n"
    " * (device device = None, dtype dtype = None, bool non_blocking = False, bool copy = False)\n"
    " * (dtype dtype, bool non_blocking = False, bool copy = False)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False)"
)
TO_TOO_MANY = "to() takes from 0 to 4 positional arguments but {n} were given"
