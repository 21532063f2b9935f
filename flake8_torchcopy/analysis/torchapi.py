"""Facts about PyTorch's API that the analysis relies on, without importing torch.

Only what is certain goes in: a function listed as returning a tensor returns a
tensor for every valid call.  Functions that may return tuples (``torch.max``
with a dim, ``split``, ``chunk``, ``torch.where(cond)``) are not listed.  The
return-type tables start from ``torchfacts`` (generated from torch's schemas by
``tools/gen_torch_facts.py``) and add, by hand, what no schema states.  Every
name here is checked against torch 2.13 by ``tests/test_library_facts.py`` and
``tests/test_torch_facts.py``: it exists, and every sample call that succeeds
returns what the table says.
"""
from __future__ import annotations

from . import torchfacts as facts


def _torch_level(qualnames, prefix: str = "torch.") -> frozenset:
    """The names ``n`` of ``prefix + n`` among qualified names (``torch.topk`` -> ``topk``)."""
    return frozenset(q[len(prefix):] for q in qualnames
                     if q.startswith(prefix) and "." not in q[len(prefix):])


# torch.<name>(...) that always returns a tensor: what torch's schemas and annotations say
# (analysis/torchfacts.py), and the Python-level functions they say nothing of (hand
# bindings without a schema, Python functions without a return annotation).
TENSOR_FUNCTIONS = _torch_level(facts.TENSOR_FUNCTIONS) | frozenset(
    "tensor as_tensor asarray from_numpy frombuffer block_diag cdist norm tensordot".split())
# Not here: ``where`` (``torch.where(cond)`` is a tuple), max/min/median (a tuple with a dim),
# nonzero (``as_tuple=True``): ``facts.VARYING_FUNCTIONS``.

# torch.<name>(...) that are TensorIterator ops of their tensor arguments (inputs of the same
# sizes and dense strides give an output of those strides): the ops torch tags pointwise and
# their documented aliases, but for ``clone`` (``memory_format=`` decides) and those whose
# output is contiguous whatever the input's layout: ``rrelu``, ``mvlgamma``, and ``pow``/
# ``float_power`` with a number first (``torch.pow(2, x)``; ``x.pow(2)`` keeps x's strides).
# ``floor_divide`` is one torch does not tag.
_NOT_TENSOR_ITERATOR = frozenset("clone rrelu mvlgamma pow float_power".split())
TENSOR_ITERATOR_FUNCTIONS = frozenset(
    n for n in facts.POINTWISE_OPS | {a for a, op in facts.ALIASES.items() if op in facts.POINTWISE_OPS}
    if n in TENSOR_FUNCTIONS and not n.endswith("_") and n not in _NOT_TENSOR_ITERATOR) | {"floor_divide"}

# torch.nn.functional.<name>(...) that always returns a tensor.
FUNCTIONAL_TENSOR_FUNCTIONS = _torch_level(facts.TENSOR_FUNCTIONS, "torch.nn.functional.") | frozenset(
    "sigmoid tanh softsign tanhshrink upsample upsample_bilinear upsample_nearest".split())

# Tensor methods whose result is a tensor when the receiver is one: the facts, and the
# hand-written bindings without a schema (dtype and device conversions, ``new_tensor``) and
# Python methods without a return annotation.
TENSOR_METHODS = facts.TENSOR_METHODS | frozenset(
    """
    cpu cuda float double half bfloat16 int long short bool byte char cfloat cdouble new_tensor
    norm share_memory_ unflatten
    """.split()
)

# Methods that exist only on tensors: calling one on a name is evidence the name is a tensor.
TENSOR_ONLY_METHODS = frozenset(
    """
    detach detach_ unsqueeze unsqueeze_ contiguous permute new_tensor
    new_zeros new_ones new_empty new_full masked_fill masked_fill_ type_as view_as reshape_as
    expand_as index_select is_contiguous dim untyped_storage is_floating_point is_complex
    """.split()
)
# Of those, the ones Tensor takes exactly one argument for (``other``): ``x.view_as(shape, dtype)``
# raises TypeError on a tensor, so it is another class's method (lynpy's), not evidence.
ONE_ARGUMENT_METHODS = frozenset("view_as reshape_as expand_as type_as".split())


def tensor_arity(method: str, call) -> bool:
    """Could ``call`` (of ``.method``) be Tensor's, by its number of arguments?"""
    if method not in ONE_ARGUMENT_METHODS:
        return True
    return len(call.args) + len(call.keywords) == 1 and all(k.arg == "other" for k in call.keywords)


# Methods returning a tuple of tensors that no other class has (numpy's arrays, torch's
# storages, nn.Module): what ``x.topk(k)`` returned holds tensors (checked as above).
TENSOR_ONLY_TUPLE_METHODS = frozenset({"topk"})
# torch.<name>(x, ...) that raise TypeError unless x is a tensor (or has __torch_function__):
# no overload takes a number, a list or an ndarray first (checked with torch in
# tests/test_torch_input_evidence.py); calling one on a name is evidence it is a tensor.
TENSOR_INPUT_FUNCTIONS = frozenset(
    """
    isnan isinf isfinite isneginf isposinf isreal any all sum mean argmax argmin exp log sqrt
    sigmoid tanh flatten squeeze unsqueeze permute transpose nonzero
    """.split()
)
# Keywords that only Tensor's method of that name takes: ``x.flatten(end_dim=-2)`` (ndarray's
# flatten takes ``order``), ``x.sum(1, keepdim=True)`` (numpy's ``keepdims``, xarray's
# ``keep_attrs``).  Checked with torch, numpy and nn.Module in tests/test_torch_input_evidence.py.
_KEEPDIM = frozenset({"keepdim"})
TENSOR_ONLY_KEYWORDS = {
    "flatten": frozenset({"start_dim", "end_dim"}),
    **{m: _KEEPDIM for m in "sum mean amax amin argmax argmin std var prod any all logsumexp".split()},
}


def tensor_only_keyword(method: str, call) -> bool:
    """Does ``call`` (of ``.method``) pass a keyword only Tensor's ``method`` takes?"""
    names = TENSOR_ONLY_KEYWORDS.get(method)
    return names is not None and any(k.arg in names for k in call.keywords)


# Not here: cuda cpu to float half double bfloat16 requires_grad_, which nn.Module has too
# (``copy.deepcopy(model.half())`` is not a tensor copy); numel (``torch.Size`` has it);
# data_ptr element_size long pin_memory (storages have them; PackedSequence has long and
# pin_memory).  ``detach`` is also a method of io's buffered streams, on which every copy
# idiom raises as it is.

# Tensor methods whose result is not a tensor: the facts (sizes, numbers, bools, None),
# and the hand-written bindings and Python methods without a schema.
NON_TENSOR_METHODS = facts.NON_TENSOR_METHODS | frozenset(
    "tolist numpy ndimension nelement element_size data_ptr __len__ untyped_storage storage".split())
NON_TENSOR_ATTRIBUTES = frozenset(
    "shape dtype device ndim is_cuda is_leaf requires_grad layout is_sparse itemsize nbytes".split()
)
# Attributes that are tensors when the receiver is a tensor.
TENSOR_ATTRIBUTES = frozenset("T mT H mH data real imag".split())

# torch.<name> values that are not tensors (numbers, dtypes, modules, classes).
NON_TENSOR_TORCH_ATTRIBUTES = frozenset(
    """
    pi e inf nan float32 float64 float16 bfloat16 int64 int32 int16 int8 uint8 bool complex64
    complex128 float half double long int short cfloat cdouble device dtype Size
    contiguous_format channels_last preserve_format strided
    """.split()
)
NON_TENSOR_TORCH_FUNCTIONS = _torch_level(facts.NON_TENSOR_FUNCTIONS) | frozenset(
    """
    finfo iinfo is_tensor is_floating_point numel device dtype Size get_default_dtype
    manual_seed is_grad_enabled no_grad enable_grad inference_mode get_default_device
    set_default_device set_default_dtype cuda.is_available is_complex
    """.split()
)

# Python builtins whose result is never a tensor (Python checks the type each returns).
# Not here: abs min max sum round getattr divmod, which return what a dunder or their
# argument gives (``min(t, 3.0)`` is t).
NON_TENSOR_BUILTINS = frozenset(
    """
    len int float bool str repr list tuple dict set frozenset range enumerate zip sorted
    isinstance issubclass hasattr type id hash
    """.split()
)

# Dtype names, to tell ``.view(torch.int32)`` from a reshape.
DTYPE_NAMES = frozenset(
    """
    float32 float64 float16 bfloat16 int64 int32 int16 int8 uint8 uint16 uint32 uint64 bool
    complex64 complex128 complex32 float half double long int short cfloat cdouble chalf
    float8_e4m3fn float8_e5m2 float8_e4m3fnuz float8_e5m2fnuz qint8 quint8 qint32
    float8_e8m0fnu float4_e2m1fn_x2 quint4x2 quint2x4 bits1x8 bits2x4 bits4x2 bits8 bits16
    int1 int2 int3 int4 int5 int6 int7 uint1 uint2 uint3 uint4 uint5 uint6 uint7 bit
    """.split()
)

# ``x.to(<one of these>)`` is a tensor whatever x was: ``nn.Module.to`` accepts only
# floating point and complex dtypes.
NON_FLOAT_DTYPES = frozenset(
    "int8 int16 int32 int64 uint8 uint16 uint32 uint64 long int short bool".split()
)

# Legacy typed constructors: torch.<name>(t) aliases t.
LEGACY_CONSTRUCTORS = frozenset(
    """
    Tensor FloatTensor DoubleTensor HalfTensor BFloat16Tensor LongTensor IntTensor
    ShortTensor CharTensor ByteTensor BoolTensor
    """.split()
)

# The methods that only reorder dims (a view with permuted strides); ``transpose_``/``t_``
# do it in place.
PERMUTE_METHODS = frozenset("transpose swapaxes swapdims permute t movedim moveaxis".split())

# Factories that take sizes as ``*sizes`` or one sequence, and return a contiguous tensor.
SIZE_FACTORIES = frozenset("zeros ones empty rand randn".split())

# Shape-preserving, stride-preserving elementwise tensor methods (TensorIterator keeps the
# input's dim order for dense inputs; copy methods use preserve_format).
LAYOUT_PRESERVING_METHODS = frozenset(
    """
    detach detach_ requires_grad_ clone to cuda cpu float double half bfloat16 int long short
    bool byte char type_as abs neg exp log sqrt rsqrt sigmoid tanh relu pow clamp clip round
    floor ceil sign mul div add sub nan_to_num add_ sub_ mul_ div_ clamp_
    masked_fill_ zero_ fill_ abs_ neg_ exp_ sqrt_ logical_not float_power lerp
    """.split()
)
# Shape-preserving methods whose output strides we don't model (``masked_fill`` clones its
# input contiguous, whatever its layout).
SHAPE_PRESERVING_METHODS = frozenset("softmax log_softmax cumsum cumprod flip roll tril triu masked_fill".split())

# What an ``nn.Module`` (its class, or a fresh instance) holds besides dunders: an
# attribute of these names is nn.Module's (``self.training`` is set by ``train()``), so a
# class summary never claims one.
MODULE_ATTRIBUTES = frozenset(
    """
    T_destination _apply _backward_hooks _backward_pre_hooks _buffers _call_impl
    _compiled_call_impl _forward_hooks _forward_hooks_always_called _forward_hooks_with_kwargs
    _forward_pre_hooks _forward_pre_hooks_with_kwargs _get_backward_hooks
    _get_backward_pre_hooks _get_name _is_full_backward_hook _load_from_state_dict
    _load_state_dict_post_hooks _load_state_dict_pre_hooks _maybe_warn_non_full_backward_hook
    _modules _named_members _non_persistent_buffers_set _parameters
    _register_load_state_dict_pre_hook _register_state_dict_hook _replicate_for_data_parallel
    _save_to_state_dict _slow_forward _state_dict_hooks _state_dict_pre_hooks _version
    _wrapped_call_impl add_module apply bfloat16 buffers call_super_init children compile cpu
    cuda double dump_patches eval extra_repr float forward get_buffer get_extra_state
    get_parameter get_submodule half ipu load_state_dict modules mtia named_buffers
    named_children named_modules named_parameters parameters register_backward_hook
    register_buffer register_forward_hook register_forward_pre_hook
    register_full_backward_hook register_full_backward_pre_hook
    register_load_state_dict_post_hook register_load_state_dict_pre_hook register_module
    register_parameter register_state_dict_post_hook register_state_dict_pre_hook
    requires_grad_ set_extra_state set_submodule share_memory state_dict to to_empty train
    training type xpu zero_grad
    """.split()
)

# torch.nn's loss bases: nn.Module subclasses that define no method, property or class
# attribute of their own and only store these in ``__init__`` (``reduction``; ``weight``, a
# buffer, in ``_WeightedLoss``): a class deriving from one is summarised as an nn.Module
# whose attributes of these names are never claimed (checked with torch).
LOSS_BASES = frozenset({"torch.nn.modules.loss._Loss", "torch.nn.modules.loss._WeightedLoss"})
LOSS_ATTRIBUTES = frozenset({"reduction", "weight"})
BASE_ATTRIBUTES = MODULE_ATTRIBUTES | LOSS_ATTRIBUTES
