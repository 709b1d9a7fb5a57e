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
from .batchnorm import BatchNorm1d
from .container import ModuleDict, ModuleList, Sequential
from .conv import Conv1d, Conv2d
from .dropout import Dropout
from .embedding import Embedding, EmbeddingBag
from .flatten import Flatten, Unflatten
from .linear import Identity, Linear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module
from .normalization import LayerNorm
from .parameter_container import ParameterDict, ParameterList
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .rnn import GRU, LSTM, RNN, RNNBase
from .rnn_cell import GRUCell, LSTMCell, RNNCell, RNNCellBase
from .softmax import LogSoftmax, Softmax
