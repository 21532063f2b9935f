"""TRC201's fix where the view's RuntimeError may be caught away from a lexical try."""
import pytest

from flake8_torchcopy.engine import lint_source

HEAD = "import torch\n\n\n"
VIEW = "    x = torch.randn(2, 3, 4)\n    return x.transpose(1, 2).view(2, 12)\n"


def _safe(src):
    found = [f for f in lint_source(HEAD + src) if f.code == "TRC201"]
    assert len(found) == 1 and found[0].fix is not None, src
    return found[0].fix.safe


TRY = "\n\ndef h(run):\n    try:\n        return run()\n    except RuntimeError:\n        return None\n"
CAUGHT = {
    "finally returns": "def f():\n    try:\n        x = torch.randn(2, 3, 4)\n"
                       "        y = x.transpose(1, 2).view(2, 12)\n    finally:\n        return 1\n",
    "generator": "def g():\n    x = torch.randn(2, 3, 4)\n    yield x.transpose(1, 2).view(2, 12)\n" + TRY,
    "coroutine": "async def g():\n" + VIEW + TRY,
    "coroutine gathered": "async def g():\n" + VIEW + "\n\nasync def m():\n"
                          "    return await asyncio.gather(g(), return_exceptions=True)\n",
    "decorated": "@wrap\ndef g():\n" + VIEW + TRY,
    "passed as a value": "def g():\n" + VIEW + "\n\nys = [g]\n" + TRY,
    "submitted to a pool": "def g():\n" + VIEW + "\n\ndef m(pool):\n    return pool.submit(g)\n",
    "named by a string": "class A:\n    def g(self):\n    " + VIEW.replace("\n    ", "\n        ")
                         + "\n\ndef k(a):\n    return getattr(a, 'g')\n" + TRY,
    "forward in a module with a catching try": "class M(torch.nn.Module):\n    def forward(self):\n    "
        + VIEW.replace("\n    ", "\n        ") + TRY,
}
PLAIN = {
    "plain function": "def g():\n" + VIEW + TRY,
    "finally with a loop's own break": "def f():\n    try:\n        x = torch.randn(2, 3, 4)\n"
        "        y = x.transpose(1, 2).view(2, 12)\n    finally:\n        for i in range(2):\n"
        "            break\n    return y\n",
    "no_grad decorator": "@torch.no_grad()\ndef g():\n" + VIEW + TRY,
    "generator, nothing in the module catches": "def g():\n    x = torch.randn(2, 3, 4)\n"
        "    yield x.transpose(1, 2).view(2, 12)\n",
    "forward in a module without a catching try": "class M(torch.nn.Module):\n    def forward(self):\n    "
        + VIEW.replace("\n    ", "\n        "),
}


@pytest.mark.parametrize("name", CAUGHT)
def test_unsafe_where_the_error_may_be_caught_elsewhere(name):
    assert _safe(CAUGHT[name]) is False


@pytest.mark.parametrize("name", PLAIN)
def test_safe_where_nothing_in_the_module_catches_it(name):
    assert _safe(PLAIN[name]) is True
