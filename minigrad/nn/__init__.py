"""Neural-network building blocks (``torch.nn``): Parameter, Module, layers, losses.

A :class:`Module` registers the :class:`Parameter` s and sub-modules assigned to
it, so ``model.parameters()`` finds every weight an optimizer should train.
Layers and losses are thin: their math lives in :mod:`minigrad.nn.functional`,
which is built from differentiable Tensor ops.

Example:
    >>> import minigrad as mg
    >>> from minigrad import nn
    >>> _ = mg.manual_seed(0)
    >>> model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1))
    >>> sum(p.numel() for p in model.parameters())
    17
"""

from . import functional, init, parallel, utils
from .modules import (
    ELU,
    GELU,
    GRU,
    LSTM,
    RNN,
    BatchNorm1d,
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    EmbeddingBag,
    Flatten,
    GRUCell,
    Hardtanh,
    HuberLoss,
    Identity,
    L1Loss,
    LayerNorm,
    LeakyReLU,
    Linear,
    LogSigmoid,
    LogSoftmax,
    LSTMCell,
    Module,
    ModuleDict,
    ModuleList,
    MSELoss,
    NLLLoss,
    ParameterDict,
    ParameterList,
    ReLU,
    ReLU6,
    RNNBase,
    RNNCell,
    RNNCellBase,
    Sequential,
    Sigmoid,
    SiLU,
    SmoothL1Loss,
    Softmax,
    Softplus,
    Softsign,
    Tanh,
    Unflatten,
)
from .modules.conv import Conv1d, Conv2d
from .modules.gat import GATConv
from .modules.gcn import GCNConv, gcn_norm
from .modules.pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .modules.sparse_conv import SubMConv2d, SubMConv3d
from .parameter import Parameter

__all__ = [
    "Parameter",
    "Module",
    "Linear",
    "Conv1d",
    "Conv2d",
    "MaxPool2d",
    "AdaptiveAvgPool2d",
    "AvgPool2d",
    "GCNConv",
    "GATConv",
    "gcn_norm",
    "Embedding",
    "EmbeddingBag",
    "SubMConv2d",
    "SubMConv3d",
    "ReLU",
    "Tanh",
    "Sigmoid",
    "LeakyReLU",
    "SiLU",
    "GELU",
    "ELU",
    "Softplus",
    "LogSigmoid",
    "Hardtanh",
    "ReLU6",
    "Softsign",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "ParameterList",
    "ParameterDict",
    "Identity",
    "Dropout",
    "LayerNorm",
    "BatchNorm1d",
    "Softmax",
    "LogSoftmax",
    "RNNCellBase",
    "RNNCell",
    "LSTMCell",
    "GRUCell",
    "RNNBase",
    "RNN",
    "LSTM",
    "GRU",
    "Flatten",
    "Unflatten",
    "MSELoss",
    "NLLLoss",
    "CrossEntropyLoss",
    "BCEWithLogitsLoss",
    "L1Loss",
    "SmoothL1Loss",
    "HuberLoss",
    "BCELoss",
    "functional",
    "init",
    "parallel",
    "utils",
]
