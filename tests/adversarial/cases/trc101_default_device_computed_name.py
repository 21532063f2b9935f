"""getattr(torch, "set_default_dev" + "ice")("meta"): a default device set through a computed
name, which the module's text scans cannot read."""
import torch

KNOWN_BREAK = ("a setter reached by a computed attribute name is not seen; treating every "
               "getattr(torch, <not a literal>) as one would block the fix in modules that look up "
               "dtypes by name")


def run():
    t = torch.ones(2)
    getattr(torch, "set_default_dev" + "ice")("meta")
    try:
        return torch.tensor(t).device
    finally:
        getattr(torch, "set_default_dev" + "ice")("cpu")
