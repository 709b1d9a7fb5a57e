"""Messages of ``minigrad.random`` (generators) and the samplers that use them."""

SEED_TYPE = "manual_seed expected an int seed, got {got}"
SEED_RANGE = "Overflow when unpacking long: the seed must lie in [-2**63, 2**64), got {got}"
GENERATOR_DEVICE = "minigrad runs on the CPU only: Generator(device={got!r}); use device='cpu'"
GENERATOR_TYPE = "generator must be a minigrad.Generator or None, got {got}"
GENERATOR_STATE = (
    "set_state expects a uint8 tensor of {size} bytes returned by Generator.get_state(), got {got}"
)
MULTINOMIAL_DIM = "prob_dist must be 1 or 2 dim, got a tensor of shape {shape}"
MULTINOMIAL_DTYPE = "multinomial only supports floating-point dtypes for input, got {got}"
MULTINOMIAL_SAMPLES = "multinomial: cannot sample n_sample <= 0 samples (got num_samples={got})"
MULTINOMIAL_TOO_MANY = (
    "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement "
    "(num_samples={got}, {n} categories)"
)
MULTINOMIAL_BAD = "probability tensor contains either `inf`, `nan` or element < 0"
MULTINOMIAL_SUM = "invalid multinomial distribution (sum of probabilities <= 0)"
MULTINOMIAL_NONZERO = (
    "invalid multinomial distribution (with replacement=False, not enough non-negative "
    "category to sample): {nonzero} categories have a probability above 0, {got} samples asked"
)
BERNOULLI_P = "bernoulli_ expects p to be in [0, 1], but got p={got}"
NORMAL_STD = "normal expects std >= 0.0, but found std {got}"
NORMAL_TENSOR_KWARGS = (
    "normal(): requires_grad= and device= belong to the form with number mean and std and a "
    "size (normal(0.0, 1.0, size=(2, 3), requires_grad=True)); with a tensor mean or std, "
    "call .requires_grad_() on the result"
)
UNIFORM_RANGE = "uniform_ expects to return a [from, to) range, but found from={low} > to={high}"
FLOAT_ONLY = "{fn} expects a floating-point tensor, got {got}"
EXPONENTIAL_RATE = "exponential_ expects lambda > 0.0, but found lambda={got}"
