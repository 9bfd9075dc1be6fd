# Values only the host can compute.
import torch
from vendor_tuning import TUNED

import triton

NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count
VENDOR_CONFIGS = TUNED


def get_host_configs():
    name = torch.cuda.get_device_name()
    return [triton.Config({"BLOCK": 64 if name else 128})]
