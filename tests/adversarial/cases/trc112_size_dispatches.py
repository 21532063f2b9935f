"""A factory's size may be an object with a torch-function hook (built here under another
spelling, as a library would hand one over): it sees every keyword, so a device= the fix
adds changes what it returns."""
import torch


def _handler(cls, func, types, args=(), kwargs=None):
    return torch.ones(2)  # ignores the device it is asked for


Sized = type("Sized", (), {"__torch" + "_function__": classmethod(_handler)})


def build(n):
    return torch.zeros(n).to("meta")


def call(f, *args):  # callers elsewhere: what they pass is not seen
    return f(*args)


def run():
    return call(build, Sized())
