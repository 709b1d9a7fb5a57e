"""Probability distributions with PyTorch's names, shapes and random numbers
(``torch.distributions``), for the two gradient estimators of an expectation:

- the *reparameterisation trick*: ``Normal(mu, sigma).rsample()`` is ``mu + eps * sigma``,
  recorded, so ``loss.backward()`` reaches ``mu`` and ``sigma`` (a VAE);
- the *score function*: ``a = Categorical(logits=...).sample()`` is drawn without gradient,
  and ``-(reward * dist.log_prob(a)).mean()`` is the surrogate loss (REINFORCE).

With the same seed and the same calls they draw PyTorch 2.13's numbers.
"""

from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exponential import Exponential
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .uniform import Uniform

__all__ = [
    "Bernoulli",
    "Categorical",
    "Distribution",
    "Exponential",
    "Independent",
    "Laplace",
    "MultivariateNormal",
    "Normal",
    "OneHotCategorical",
    "Uniform",
    "constraints",
    "kl_divergence",
    "register_kl",
]
