# As torch 2.11's: dynamo raises when a backend fails unless this is set.
suppress_errors = False
# torch 2.11's: frames are not converted (torch.compile runs eagerly).
disable = False
