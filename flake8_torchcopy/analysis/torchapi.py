"""Facts about PyTorch's API that the analysis relies on, without importing torch.

Only what is certain goes in: a function listed as returning a tensor returns a
tensor for every valid call.  Functions that may return tuples (``torch.max``
with a dim, ``split``, ``chunk``, ``torch.where(cond)``) are not listed.  Every
name here is checked against torch 2.13 by ``tests/test_library_facts.py``: it
exists, and every sample call that succeeds returns what the table says.
"""
from __future__ import annotations

_POINTWISE = """
abs absolute acos acosh add addcdiv addcmul angle asin asinh atan atan2 atanh bitwise_and
bitwise_not bitwise_or bitwise_xor ceil clamp clamp_max clamp_min clip conj cos cosh deg2rad
digamma div divide erf erfc erfinv exp exp2 expm1 fix float_power floor floor_divide fmod frac
hypot i0 lerp lgamma log log10 log1p log2 logaddexp logical_and logical_not logical_or
logical_xor logit mul multiply nan_to_num neg negative nextafter polygamma positive pow
rad2deg real reciprocal remainder round rsqrt sigmoid sign sgn signbit sin sinc sinh sqrt
square sub subtract tan tanh true_divide trunc xlogy relu celu selu
eq ne lt le gt ge isnan isinf isfinite isneginf isposinf masked_fill
""".split()
# Not here: ``where`` (``torch.where(cond)`` is a tuple); gelu, silu, elu (only in
# torch.nn.functional), ``equal`` (a bool).

# torch.<name>(...) that always returns a tensor.
TENSOR_FUNCTIONS = frozenset(
    """
    tensor as_tensor asarray from_numpy frombuffer zeros ones empty full rand randn randint
    randperm arange range linspace logspace eye zeros_like ones_like empty_like full_like
    rand_like randn_like randint_like empty_strided stack cat concat concatenate hstack vstack
    dstack column_stack matmul mm bmm baddbmm addmm addbmm addmv mv dot outer einsum tensordot
    kron cross cumsum cumprod diff flip fliplr flipud roll rot90 tril triu diag diagonal
    diag_embed diagflat softmax log_softmax sum mean prod std var norm logsumexp amax amin
    argmax argmin all any count_nonzero nansum nanmean cdist cosine_similarity pairwise_distance
    reshape view_as_real view_as_complex flatten squeeze unsqueeze transpose swapaxes swapdims
    permute movedim moveaxis t narrow select index_select masked_select gather scatter
    scatter_add take take_along_dim repeat_interleave tile broadcast_to clone detach
    bucketize searchsorted multinomial normal bernoulli poisson polar complex heaviside
    block_diag cartesian_prod combinations tril_indices triu_indices outer ger trace
    conv1d conv2d conv3d conv_transpose1d conv_transpose2d dropout layer_norm group_norm
    batch_norm instance_norm embedding pixel_shuffle pixel_unshuffle adaptive_avg_pool1d
    avg_pool1d bilinear cumulative_trapezoid trapezoid trapz vander
    """.split()
) | frozenset(_POINTWISE)

# torch.nn.functional.<name>(...) that always returns a tensor.
FUNCTIONAL_TENSOR_FUNCTIONS = frozenset(
    """
    relu relu6 gelu silu mish elu selu celu leaky_relu prelu rrelu glu hardtanh hardswish
    hardsigmoid sigmoid tanh softplus softsign softshrink hardshrink tanhshrink logsigmoid
    softmax log_softmax softmin gumbel_softmax normalize linear bilinear conv1d conv2d conv3d
    conv_transpose1d conv_transpose2d conv_transpose3d avg_pool1d avg_pool2d avg_pool3d
    adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d lp_pool1d lp_pool2d
    dropout dropout1d dropout2d dropout3d alpha_dropout feature_alpha_dropout embedding
    embedding_bag one_hot pad interpolate upsample upsample_nearest upsample_bilinear
    grid_sample affine_grid pixel_shuffle pixel_unshuffle layer_norm group_norm batch_norm
    instance_norm local_response_norm rms_norm scaled_dot_product_attention cross_entropy
    nll_loss mse_loss l1_loss smooth_l1_loss huber_loss binary_cross_entropy
    binary_cross_entropy_with_logits kl_div cosine_similarity pairwise_distance pdist
    triplet_margin_loss margin_ranking_loss hinge_embedding_loss soft_margin_loss
    multilabel_soft_margin_loss poisson_nll_loss gaussian_nll_loss ctc_loss unfold fold
    """.split()
)

# Tensor methods whose result is a tensor when the receiver is one.
TENSOR_METHODS = frozenset(
    """
    clone detach detach_ to cuda cpu float double half bfloat16 int long short bool byte char
    cfloat cdouble type_as contiguous view view_as reshape reshape_as transpose transpose_
    permute t t_ swapaxes swapdims movedim moveaxis expand expand_as repeat repeat_interleave
    squeeze squeeze_ unsqueeze unsqueeze_ flatten unflatten narrow select index_select
    masked_select masked_fill masked_fill_ gather scatter scatter_ scatter_add scatter_add_
    sum mean prod std var norm amax amin argmax argmin cumsum cumprod softmax log_softmax
    matmul mm bmm mv dot abs neg exp log sqrt rsqrt sigmoid tanh relu pow clamp clamp_ clip
    round floor ceil sign add add_ sub sub_ mul mul_ div div_ fill_ zero_ copy_ requires_grad_
    new_tensor new_zeros new_ones new_empty new_full flip roll tril triu diagonal diag
    pin_memory share_memory_ coalesce to_dense to_sparse conj resolve_conj resolve_neg
    float_power logical_not logical_and logical_or isnan isinf isfinite eq ne lt le gt ge
    where addmm baddbmm lerp nan_to_num abs_ neg_ exp_ sqrt_ tile broadcast_to
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
# Not here: cuda cpu to float half double bfloat16 requires_grad_, which nn.Module has too
# (``copy.deepcopy(model.half())`` is not a tensor copy); numel (``torch.Size`` has it);
# data_ptr element_size long pin_memory (storages have them; PackedSequence has long and
# pin_memory).  ``detach`` is also a method of io's buffered streams, on which every copy
# idiom raises as it is.

# Tensor methods and attributes whose result is not a tensor.
NON_TENSOR_METHODS = frozenset(
    """
    item tolist numpy size dim ndimension numel element_size data_ptr is_contiguous
    is_floating_point is_complex stride storage_offset get_device nelement __len__
    untyped_storage storage
    """.split()
)
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
NON_TENSOR_TORCH_FUNCTIONS = frozenset(
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
