"""The layer classes of ``minigrad.nn`` (``torch.nn.modules``)."""

from .activation import (
    ELU,
    GELU,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softplus,
    Softsign,
    Tanh,
)
from .container import Sequential
from .embedding import Embedding, EmbeddingBag
from .flatten import Flatten, Unflatten
from .linear import Linear
from .loss import BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
