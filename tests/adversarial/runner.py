"""Run case modules and print what each one observably did.

``python [-O] runner.py OUT CASEDIR STEM [STEM...]``

The parent imports torch once and nothing else of the cases; for every STEM it forks a
child (a fresh copy of the pristine process: no case has run in it, the default device,
dtype, grad mode and RNG are torch's defaults), which imports ``CASEDIR/STEM.py`` and calls
its ``run()``. What the child observed goes back through a pipe; OUT gets a pickled
``{stem: record}``. A record holds only plain data (strings, numbers, tuples, lists, dicts),
so the parent of this process (the pytest harness) can compare two of them with ``==``.

This file is the harness's, not a case: it is never rewritten by the fixer.
"""
import contextlib
import hashlib
import importlib
import io
import os
import pickle
import re
import select
import signal
import sys
import time
import traceback
import warnings

sys.dont_write_bytecode = True

import torch  # noqa: E402  (imported once, before any fork)

CASE_TIMEOUT_S = 60.0
_ADDR = re.compile(r"0x[0-9a-fA-F]+")
_casedir = ""


def scrub(text):
    """Text with addresses and the case directory (which differs between runs) masked."""
    text = str(text)
    if _casedir:
        text = text.replace(_casedir, "<casedir>")
    return _ADDR.sub("0x?", text)


# ---------------------------------------------------------------- serialising results

def _tensor_values(t):
    if t.device.type == "meta":
        return "<meta>"
    try:
        with torch._C.DisableTorchFunctionSubclass():
            plain = torch.Tensor.detach(t)
            if plain.layout != torch.strided:
                plain = plain.to_dense()
            if plain.is_quantized:
                plain = plain.dequantize()
            plain = plain.cpu()
            return repr(plain.tolist())  # nan prints as nan: equal strings, equal values
    except Exception as exc:  # noqa: BLE001 - an unreadable tensor is still described
        return f"<unreadable: {type(exc).__name__}: {scrub(exc)}>"


class _Ser:
    def __init__(self):
        self.tensors = []  # every tensor met, in traversal order, for the alias relations
        self.active = set()  # ids on the current path (cycles)

    def __call__(self, o, depth=0):
        if depth > 12:
            return ("<too deep>", type(o).__name__)
        if o is None or isinstance(o, (bool, int, str, bytes)):
            return (type(o).__name__, o)
        if isinstance(o, (float, complex)):
            return (type(o).__name__, repr(o))
        if id(o) in self.active:
            return ("<cycle>", type(o).__name__)
        self.active.add(id(o))
        try:
            return self._compound(o, depth)
        finally:
            self.active.discard(id(o))

    def _compound(self, o, depth):
        d = depth + 1
        if isinstance(o, torch.Tensor):
            return self._tensor(o, d)
        if isinstance(o, (torch.dtype, torch.device, torch.Size, torch.layout, torch.memory_format)):
            return ("torch." + type(o).__name__, str(o))
        if isinstance(o, (list, tuple)):
            return (type(o).__name__, [self(x, d) for x in o])
        if isinstance(o, dict):
            return (type(o).__name__, [(self(k, d), self(v, d)) for k, v in o.items()])
        if isinstance(o, (set, frozenset)):
            return (type(o).__name__, sorted(repr(self(x, d)) for x in o))
        mod = type(o).__module__ or ""
        if mod == "numpy" or mod.startswith("numpy."):
            if hasattr(o, "tolist"):
                return ("numpy", type(o).__name__, str(getattr(o, "dtype", "")),
                        tuple(getattr(o, "shape", ())), repr(o.tolist()))
        if isinstance(o, type(os)):
            return ("module", o.__name__)
        if isinstance(o, type) or callable(o) and not hasattr(o, "__dict__"):
            return ("callable", getattr(o, "__qualname__", type(o).__name__))
        if callable(o) and hasattr(o, "__code__"):
            return ("function", o.__qualname__)
        state = getattr(o, "__dict__", None)
        if isinstance(state, dict):
            return ("object", type(o).__name__, self(dict(state), d))
        slots = [s for k in type(o).__mro__ for s in getattr(k, "__slots__", ()) or ()]
        if slots:
            return ("slots", type(o).__name__,
                    [(s, self(getattr(o, s, "<unset>"), d)) for s in slots])
        return ("repr", type(o).__name__, scrub(repr(o)))

    def _tensor(self, t, d):
        self.tensors.append(t)
        rec = {
            "type": type(t).__name__,
            "dtype": str(t.dtype),
            "device": str(t.device),
            "layout": str(t.layout),
            "shape": tuple(t.shape),
            "stride": tuple(t.stride()) if t.layout == torch.strided else None,
            "storage_offset": t.storage_offset() if t.layout == torch.strided else None,
            "requires_grad": t.requires_grad,
            "is_leaf": t.is_leaf,
            "grad_fn_is_none": t.grad_fn is None,
            "is_inference": t.is_inference(),
            "is_conj": t.is_conj(),
            "is_neg": t.is_neg(),
            "values": _tensor_values(t),
        }
        if t.is_leaf:
            rec["grad"] = self(t.grad, d)
        attrs = getattr(t, "__dict__", None)
        if attrs:
            rec["attrs"] = self(dict(attrs), d)
        return ("tensor", rec)


def _relations(tensors):
    """For each pair of tensors met: same object, same data pointer, same storage."""
    def ptrs(t):
        try:
            return t.data_ptr(), t.untyped_storage().data_ptr()
        except Exception:  # noqa: BLE001 - sparse, meta and such have no plain storage
            return None, None

    p = [ptrs(t) for t in tensors]
    out = []
    for i in range(len(tensors)):
        for j in range(i + 1, len(tensors)):
            same_obj = tensors[i] is tensors[j]
            same_ptr = p[i][0] is not None and p[i][0] == p[j][0]
            same_storage = p[i][1] is not None and p[i][1] == p[j][1]
            if same_obj or same_ptr or same_storage:
                out.append((i, j, same_obj, same_ptr, same_storage))
    return out


# ---------------------------------------------------------------- one case, in a child

def _observe(stem):
    buf = io.StringIO()
    outcome = None
    result = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.redirect_stdout(buf):
            try:
                module = importlib.import_module(stem)
                result = module.run()
                outcome = ("returned",)
            except BaseException as exc:  # noqa: BLE001 - an exception is an observation
                outcome = ("raised", type(exc).__name__, scrub(exc),
                           scrub(traceback.format_exc()))
    record = {
        "outcome": outcome[:3],
        "traceback": outcome[3] if len(outcome) > 3 else None,
        "stdout": scrub(buf.getvalue()),
        "warnings": [(w.category.__name__, scrub(w.message)) for w in caught],
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ser = _Ser()
            record["result"] = ser(result)
            record["aliases"] = _relations(ser.tensors)
        except BaseException as exc:  # noqa: BLE001
            record["result"] = ("<serialisation failed>", type(exc).__name__, scrub(exc))
            record["aliases"] = None
        try:
            record["rng"] = hashlib.sha256(torch.get_rng_state().numpy().tobytes()).hexdigest()[:16]
        except BaseException as exc:  # noqa: BLE001
            record["rng"] = f"<{type(exc).__name__}>"
        record["python_optimize"] = sys.flags.optimize
        record["grad_enabled"] = torch.is_grad_enabled()
        record["default_dtype"] = str(torch.get_default_dtype())
        try:
            record["default_device"] = str(torch.get_default_device())
        except BaseException as exc:  # noqa: BLE001
            record["default_device"] = f"<{type(exc).__name__}>"
    return record


def _child(stem, wfd):
    try:
        torch.manual_seed(0)
        import random
        random.seed(0)
        record = _observe(stem)
        try:
            data = pickle.dumps(record)
        except BaseException as exc:  # noqa: BLE001
            data = pickle.dumps({"harness_error": f"pickle: {type(exc).__name__}: {exc}"})
    except BaseException as exc:  # noqa: BLE001
        data = pickle.dumps({"harness_error": f"{type(exc).__name__}: {exc}"})
    with os.fdopen(wfd, "wb") as f:
        f.write(data)


def run_one(stem):
    sys.stdout.flush()
    sys.stderr.flush()
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(rfd)
        code = 0
        try:
            _child(stem, wfd)
        except BaseException:  # noqa: BLE001
            code = 1
        os._exit(code)
    os.close(wfd)
    chunks = []
    deadline = time.monotonic() + CASE_TIMEOUT_S
    timed_out = False
    with os.fdopen(rfd, "rb") as r:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                continue
            chunk = os.read(r.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"harness_error": f"timed out after {CASE_TIMEOUT_S} s"}
    try:
        return pickle.loads(b"".join(chunks))
    except Exception as exc:  # noqa: BLE001
        return {"harness_error": f"child died (status {status}): {type(exc).__name__}: {exc}"}


def _warm_up(stems):
    """torch.optim's first step imports torch._dynamo (about 3 s): do that once here, before
    any fork, rather than in every child that steps an optimizer. It changes none of the
    state a record holds (the children seed the RNG themselves)."""
    for stem in stems:
        try:
            with open(os.path.join(_casedir, stem + ".py"), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            continue
        if "optim" in text:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                import torch._dynamo  # noqa: F401
            return


def main(argv):
    global _casedir
    out, casedir, stems = argv[0], argv[1], argv[2:]
    _casedir = os.path.abspath(casedir)
    sys.path.insert(0, _casedir)
    _warm_up(stems)
    results = {stem: run_one(stem) for stem in stems}
    with open(out, "wb") as f:
        pickle.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1:])
