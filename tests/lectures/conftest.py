"""The lecture scripts are run by test_lectures_oracle.py under each library, never imported
(they start with ``import LIB as torch``)."""

collect_ignore = ["bigram.py", "mlp.py", "backprop_by_hand.py", "hooks_and_checkpoints.py"]
collect_ignore += ["basics_tensors.py", "basics_training.py", "blitz.py", "scalar_engine.py"]
collect_ignore += ["batchnorm_by_hand.py", "wavenet.py", "d2l_scratch.py", "nn_really.py"]
collect_ignore += ["autograd_walkthrough.py", "activations.py", "quickstart.py"]
collect_ignore += ["with_examples.py", "d2l_preliminaries.py"]
