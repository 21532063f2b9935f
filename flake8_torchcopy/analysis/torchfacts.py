"""PyTorch facts read from torch 2.13.0 by tools/gen_torch_facts.py.

GENERATED FILE, DO NOT EDIT.  Regenerate with the torch the tests pin:

    python tools/gen_torch_facts.py

Functions are named by qualified name (``torch.topk``, ``torch.linalg.svd``,
``torch.nn.functional.relu``), Tensor methods by name.  A name is in a table only
when every overload (every ATen schema its C binding dispatches to, or the return
annotation of its Python function) agrees; names whose overloads disagree are in
the ``VARYING_*`` tables with each return kind.  Operator tables (views, in-place,
pointwise, memory format) name ATen operators, which ``torch.<op>`` and
``Tensor.<op>`` bind.  Checked by tests/test_torch_facts.py.
"""

TORCH_VERSION = '2.13.0'

# Functions every call of which returns one tensor.
TENSOR_FUNCTIONS = frozenset("""
torch.abs torch.abs_ torch.absolute torch.acos torch.acos_ torch.acosh torch.acosh_
torch.adaptive_avg_pool1d torch.add torch.addbmm torch.addcdiv torch.addcmul torch.addmm
torch.addmv torch.addmv_ torch.addr torch.adjoint torch.affine_grid_generator
torch.alias_copy torch.all torch.alpha_dropout torch.alpha_dropout_ torch.amax torch.amin
torch.angle torch.any torch.arange torch.arccos torch.arccos_ torch.arccosh torch.arccosh_
torch.arcsin torch.arcsin_ torch.arcsinh torch.arcsinh_ torch.arctan torch.arctan2
torch.arctan_ torch.arctanh torch.arctanh_ torch.argmax torch.argmin torch.argsort
torch.argwhere torch.as_strided torch.as_strided_ torch.as_strided_copy
torch.as_strided_scatter torch.asin torch.asin_ torch.asinh torch.asinh_ torch.atan
torch.atan2 torch.atan_ torch.atanh torch.atanh_ torch.avg_pool1d torch.baddbmm
torch.bartlett_window torch.batch_norm torch.batch_norm_backward_elemt
torch.batch_norm_elemt torch.bernoulli torch.bilinear torch.binary_cross_entropy_with_logits
torch.bincount torch.binomial torch.bitwise_and torch.bitwise_left_shift torch.bitwise_not
torch.bitwise_or torch.bitwise_right_shift torch.bitwise_xor torch.blackman_window torch.bmm
torch.broadcast_to torch.bucketize torch.cartesian_prod torch.cat torch.ccol_indices_copy
torch.ceil torch.ceil_ torch.celu torch.celu_ torch.channel_shuffle torch.cholesky
torch.cholesky_inverse torch.cholesky_solve torch.clamp torch.clamp_ torch.clamp_max
torch.clamp_max_ torch.clamp_min torch.clamp_min_ torch.clip torch.clip_ torch.clone
torch.col_indices_copy torch.column_stack torch.combinations torch.complex torch.concat
torch.concatenate torch.conj torch.conj_physical torch.conj_physical_ torch.constant_pad_nd
torch.conv1d torch.conv2d torch.conv3d torch.conv_tbc torch.conv_transpose1d
torch.conv_transpose2d torch.conv_transpose3d torch.convolution torch.copysign
torch.corrcoef torch.cos torch.cos_ torch.cosh torch.cosh_ torch.cosine_embedding_loss
torch.cosine_similarity torch.count_nonzero torch.cov torch.cross torch.crow_indices_copy
torch.ctc_loss torch.cudnn_affine_grid_generator torch.cudnn_convolution
torch.cudnn_convolution_add_relu torch.cudnn_convolution_relu
torch.cudnn_convolution_transpose torch.cudnn_grid_sampler torch.cumprod torch.cumsum
torch.cumulative_trapezoid torch.deg2rad torch.deg2rad_ torch.det torch.detach torch.detach_
torch.detach_copy torch.diag torch.diag_embed torch.diagflat torch.diagonal
torch.diagonal_copy torch.diagonal_scatter torch.diff torch.digamma torch.dist torch.div
torch.divide torch.dot torch.dropout torch.dropout_ torch.dstack torch.einsum
torch.embedding torch.embedding_renorm_ torch.empty torch.empty_like torch.empty_permuted
torch.empty_quantized torch.empty_strided torch.eq torch.erf torch.erf_ torch.erfc
torch.erfc_ torch.erfinv torch.exp torch.exp2 torch.exp2_ torch.exp_ torch.expand_copy
torch.expm1 torch.expm1_ torch.eye torch.fake_quantize_per_channel_affine
torch.fake_quantize_per_tensor_affine torch.fbgemm_linear_fp16_weight
torch.fbgemm_linear_fp16_weight_fp32_activation torch.fbgemm_linear_int8_weight
torch.fbgemm_linear_int8_weight_fp32_activation torch.fbgemm_pack_gemm_matrix_fp16
torch.fbgemm_pack_quantized_matrix torch.feature_alpha_dropout torch.feature_alpha_dropout_
torch.feature_dropout torch.feature_dropout_ torch.fft.fft torch.fft.fft2 torch.fft.fftfreq
torch.fft.fftn torch.fft.fftshift torch.fft.hfft torch.fft.hfft2 torch.fft.hfftn
torch.fft.ifft torch.fft.ifft2 torch.fft.ifftn torch.fft.ifftshift torch.fft.ihfft
torch.fft.ihfft2 torch.fft.ihfftn torch.fft.irfft torch.fft.irfft2 torch.fft.irfftn
torch.fft.rfft torch.fft.rfft2 torch.fft.rfftfreq torch.fft.rfftn torch.fill torch.fill_
torch.fix torch.fix_ torch.flatten torch.flip torch.fliplr torch.flipud torch.float_power
torch.floor torch.floor_ torch.floor_divide torch.fmax torch.fmin torch.fmod torch.frac
torch.frac_ torch.frobenius_norm torch.from_dlpack torch.from_file torch.full
torch.full_like torch.fused_moving_avg_obs_fake_quant torch.gather torch.gcd torch.gcd_
torch.ge torch.ger torch.get_rng_state torch.greater torch.greater_equal torch.grid_sampler
torch.grid_sampler_2d torch.grid_sampler_3d torch.group_norm torch.gru_cell torch.gt
torch.hamming_window torch.hann_window torch.hardshrink torch.hash_tensor torch.heaviside
torch.hinge_embedding_loss torch.histc torch.hspmm torch.hstack torch.hypot torch.i0
torch.i0_ torch.igamma torch.igammac torch.imag torch.index_add torch.index_copy
torch.index_fill torch.index_put torch.index_put_ torch.index_reduce torch.index_select
torch.indices_copy torch.inner torch.instance_norm torch.int_repr torch.inverse
torch.isclose torch.isfinite torch.isin torch.isinf torch.isnan torch.isneginf
torch.isposinf torch.isreal torch.istft torch.kaiser_window torch.kl_div torch.kron
torch.layer_norm torch.lcm torch.lcm_ torch.ldexp torch.ldexp_ torch.le torch.lerp
torch.less torch.less_equal torch.lgamma torch.linalg.cholesky torch.linalg.cond
torch.linalg.cross torch.linalg.det torch.linalg.diagonal torch.linalg.eigvals
torch.linalg.eigvalsh torch.linalg.householder_product torch.linalg.inv
torch.linalg.ldl_solve torch.linalg.lu_solve torch.linalg.matmul torch.linalg.matrix_exp
torch.linalg.matrix_norm torch.linalg.matrix_power torch.linalg.matrix_rank
torch.linalg.multi_dot torch.linalg.norm torch.linalg.pinv torch.linalg.solve
torch.linalg.solve_triangular torch.linalg.svdvals torch.linalg.tensorinv
torch.linalg.tensorsolve torch.linalg.vander torch.linalg.vecdot torch.linalg.vector_norm
torch.linspace torch.log torch.log10 torch.log10_ torch.log1p torch.log1p_ torch.log2
torch.log2_ torch.log_ torch.log_softmax torch.logaddexp torch.logaddexp2 torch.logcumsumexp
torch.logdet torch.logical_and torch.logical_not torch.logical_or torch.logical_xor
torch.logit torch.logit_ torch.logspace torch.logsumexp torch.lt torch.lu_solve
torch.margin_ranking_loss torch.masked_fill torch.masked_scatter torch.masked_select
torch.matmul torch.matrix_exp torch.matrix_power torch.matrix_rank torch.max_pool1d
torch.max_pool2d torch.max_pool3d torch.maximum torch.mean torch.minimum
torch.miopen_convolution torch.miopen_convolution_add_relu torch.miopen_convolution_relu
torch.miopen_convolution_transpose torch.miopen_depthwise_convolution
torch.mkldnn_adaptive_avg_pool2d torch.mkldnn_convolution torch.mkldnn_max_pool2d
torch.mkldnn_max_pool3d torch.mm torch.moveaxis torch.movedim torch.msort torch.mul
torch.multinomial torch.multiply torch.mv torch.mvlgamma torch.nan_to_num torch.nan_to_num_
torch.nanmean torch.nanquantile torch.nansum torch.narrow torch.narrow_copy
torch.native_channel_shuffle torch.native_norm torch.ne torch.neg torch.neg_ torch.negative
torch.negative_ torch.nextafter torch.nn.functional.adaptive_avg_pool1d
torch.nn.functional.adaptive_avg_pool2d torch.nn.functional.adaptive_avg_pool3d
torch.nn.functional.affine_grid torch.nn.functional.alpha_dropout
torch.nn.functional.avg_pool1d torch.nn.functional.avg_pool2d torch.nn.functional.avg_pool3d
torch.nn.functional.batch_norm torch.nn.functional.bilinear
torch.nn.functional.binary_cross_entropy
torch.nn.functional.binary_cross_entropy_with_logits torch.nn.functional.celu
torch.nn.functional.celu_ torch.nn.functional.channel_shuffle torch.nn.functional.conv1d
torch.nn.functional.conv2d torch.nn.functional.conv3d torch.nn.functional.conv_tbc
torch.nn.functional.conv_transpose1d torch.nn.functional.conv_transpose2d
torch.nn.functional.conv_transpose3d torch.nn.functional.cosine_embedding_loss
torch.nn.functional.cosine_similarity torch.nn.functional.cross_entropy
torch.nn.functional.ctc_loss torch.nn.functional.dropout torch.nn.functional.dropout1d
torch.nn.functional.dropout2d torch.nn.functional.dropout3d torch.nn.functional.elu
torch.nn.functional.elu_ torch.nn.functional.embedding torch.nn.functional.embedding_bag
torch.nn.functional.feature_alpha_dropout torch.nn.functional.fold
torch.nn.functional.gaussian_nll_loss torch.nn.functional.gelu torch.nn.functional.glu
torch.nn.functional.grid_sample torch.nn.functional.group_norm
torch.nn.functional.grouped_mm torch.nn.functional.gumbel_softmax
torch.nn.functional.hardshrink torch.nn.functional.hardsigmoid torch.nn.functional.hardswish
torch.nn.functional.hardtanh torch.nn.functional.hardtanh_
torch.nn.functional.hinge_embedding_loss torch.nn.functional.huber_loss
torch.nn.functional.instance_norm torch.nn.functional.interpolate torch.nn.functional.kl_div
torch.nn.functional.l1_loss torch.nn.functional.layer_norm torch.nn.functional.leaky_relu
torch.nn.functional.leaky_relu_ torch.nn.functional.linear
torch.nn.functional.linear_cross_entropy torch.nn.functional.local_response_norm
torch.nn.functional.log_softmax torch.nn.functional.logsigmoid torch.nn.functional.lp_pool1d
torch.nn.functional.lp_pool2d torch.nn.functional.lp_pool3d
torch.nn.functional.margin_ranking_loss torch.nn.functional.max_unpool1d
torch.nn.functional.max_unpool2d torch.nn.functional.max_unpool3d torch.nn.functional.mish
torch.nn.functional.mse_loss torch.nn.functional.multi_margin_loss
torch.nn.functional.multilabel_margin_loss torch.nn.functional.multilabel_soft_margin_loss
torch.nn.functional.native_channel_shuffle torch.nn.functional.nll_loss
torch.nn.functional.normalize torch.nn.functional.one_hot torch.nn.functional.pad
torch.nn.functional.pairwise_distance torch.nn.functional.pdist
torch.nn.functional.pixel_shuffle torch.nn.functional.pixel_unshuffle
torch.nn.functional.poisson_nll_loss torch.nn.functional.prelu torch.nn.functional.relu
torch.nn.functional.relu6 torch.nn.functional.relu_ torch.nn.functional.rms_norm
torch.nn.functional.rrelu torch.nn.functional.rrelu_
torch.nn.functional.scaled_dot_product_attention torch.nn.functional.scaled_grouped_mm
torch.nn.functional.scaled_mm torch.nn.functional.selu torch.nn.functional.selu_
torch.nn.functional.silu torch.nn.functional.smooth_l1_loss
torch.nn.functional.soft_margin_loss torch.nn.functional.softmax torch.nn.functional.softmin
torch.nn.functional.softplus torch.nn.functional.softshrink torch.nn.functional.threshold
torch.nn.functional.threshold_ torch.nn.functional.triplet_margin_loss
torch.nn.functional.triplet_margin_with_distance_loss torch.nn.functional.unfold
torch.nonzero_static torch.norm_except_dim torch.normal torch.not_equal torch.nuclear_norm
torch.ones torch.ones_like torch.orgqr torch.ormqr torch.outer torch.pairwise_distance
torch.pdist torch.permute torch.permute_copy torch.pinverse torch.pixel_shuffle
torch.pixel_unshuffle torch.poisson torch.poisson_nll_loss torch.polar torch.polygamma
torch.positive torch.pow torch.prelu torch.prod torch.put torch.q_per_channel_scales
torch.q_per_channel_zero_points torch.quantile torch.quantize_per_channel
torch.quantize_per_tensor_dynamic torch.quantized_batch_norm torch.quantized_gru_cell
torch.quantized_max_pool1d torch.quantized_max_pool2d torch.quantized_max_pool3d
torch.quantized_rnn_relu_cell torch.quantized_rnn_tanh_cell torch.rad2deg torch.rad2deg_
torch.rand torch.rand_like torch.randint torch.randint_like torch.randn torch.randn_like
torch.randperm torch.range torch.ravel torch.real torch.reciprocal torch.reciprocal_
torch.relu torch.relu_ torch.remainder torch.renorm torch.repeat_interleave torch.reshape
torch.resize_as_ torch.resize_as_sparse_ torch.resolve_conj torch.resolve_neg torch.rms_norm
torch.rnn_relu_cell torch.rnn_tanh_cell torch.roll torch.rot90 torch.round torch.round_
torch.row_indices_copy torch.row_stack torch.rrelu torch.rrelu_ torch.rsqrt torch.rsqrt_
torch.rsub torch.scalar_tensor torch.scatter torch.scatter_add torch.scatter_reduce
torch.searchsorted torch.segment_reduce torch.select torch.select_copy torch.select_scatter
torch.selu torch.selu_ torch.sgn torch.sigmoid torch.sigmoid_ torch.sign torch.signbit
torch.sin torch.sin_ torch.sinc torch.sinc_ torch.sinh torch.sinh_ torch.slice_copy
torch.slice_inverse torch.slice_scatter torch.smm torch.softmax torch.sparse_bsc_tensor
torch.sparse_bsr_tensor torch.sparse_compressed_tensor torch.sparse_coo_tensor
torch.sparse_csc_tensor torch.sparse_csr_tensor torch.special.airy_ai
torch.special.bessel_j0 torch.special.bessel_j1 torch.special.bessel_y0
torch.special.bessel_y1 torch.special.chebyshev_polynomial_t
torch.special.chebyshev_polynomial_u torch.special.chebyshev_polynomial_v
torch.special.chebyshev_polynomial_w torch.special.digamma torch.special.entr
torch.special.erf torch.special.erfc torch.special.erfcx torch.special.erfinv
torch.special.exp2 torch.special.expit torch.special.expm1 torch.special.gammainc
torch.special.gammaincc torch.special.gammaln torch.special.hermite_polynomial_h
torch.special.hermite_polynomial_he torch.special.i0 torch.special.i0e torch.special.i1
torch.special.i1e torch.special.laguerre_polynomial_l torch.special.legendre_polynomial_p
torch.special.log1p torch.special.log_ndtr torch.special.log_softmax torch.special.logit
torch.special.logsumexp torch.special.modified_bessel_i0 torch.special.modified_bessel_i1
torch.special.modified_bessel_k0 torch.special.modified_bessel_k1 torch.special.multigammaln
torch.special.ndtr torch.special.ndtri torch.special.polygamma torch.special.psi
torch.special.round torch.special.scaled_modified_bessel_k0
torch.special.scaled_modified_bessel_k1 torch.special.shifted_chebyshev_polynomial_t
torch.special.shifted_chebyshev_polynomial_u torch.special.shifted_chebyshev_polynomial_v
torch.special.shifted_chebyshev_polynomial_w torch.special.sinc torch.special.softmax
torch.special.spherical_bessel_j0 torch.special.xlog1py torch.special.xlogy
torch.special.zeta torch.sqrt torch.sqrt_ torch.square torch.square_ torch.squeeze
torch.squeeze_copy torch.sspaddmm torch.stack torch.std torch.stft torch.sub torch.subtract
torch.sum torch.swapaxes torch.swapdims torch.t torch.t_copy torch.take torch.take_along_dim
torch.tan torch.tan_ torch.tanh torch.tanh_ torch.threshold torch.threshold_ torch.tile
torch.trace torch.transpose torch.transpose_copy torch.trapezoid torch.trapz torch.tril
torch.tril_indices torch.triplet_margin_loss torch.triu torch.triu_indices torch.true_divide
torch.trunc torch.trunc_ torch.unflatten torch.unfold_copy torch.unsqueeze
torch.unsqueeze_copy torch.values_copy torch.vander torch.var torch.vdot
torch.view_as_complex torch.view_as_complex_copy torch.view_as_real torch.view_as_real_copy
torch.view_copy torch.vstack torch.xlogy torch.xlogy_ torch.zero_ torch.zeros
torch.zeros_like
""".split())

# Functions that return a tuple of tensors of a length known at run time.
TENSOR_LIST_FUNCTIONS = frozenset("""
torch.chunk torch.dsplit torch.gradient torch.hsplit torch.meshgrid torch.split
torch.split_with_sizes torch.tensor_split torch.unbind torch.unravel_index
torch.unsafe_chunk torch.vsplit
""".split())

# Functions that return a fixed tuple: the type at each position.
TUPLE_FUNCTIONS = {
    'torch.adaptive_max_pool1d': ('Tensor', 'Tensor'),
    'torch.aminmax': ('Tensor', 'Tensor'),
    'torch.batch_norm_backward_reduce': ('Tensor', 'Tensor', 'Tensor', 'Tensor'),
    'torch.batch_norm_gather_stats': ('Tensor', 'Tensor'),
    'torch.batch_norm_gather_stats_with_counts': ('Tensor', 'Tensor'),
    'torch.batch_norm_stats': ('Tensor', 'Tensor'),
    'torch.batch_norm_update_stats': ('Tensor', 'Tensor'),
    'torch.choose_qparams_optimized': ('Tensor', 'Tensor'),
    'torch.cudnn_batch_norm': ('Tensor', 'Tensor', 'Tensor', 'Tensor'),
    'torch.cummax': ('Tensor', 'Tensor'),
    'torch.cummin': ('Tensor', 'Tensor'),
    'torch.eig': ('Tensor', 'Tensor'),
    'torch.embedding_bag': ('Tensor', 'Tensor', 'Tensor', 'Tensor'),
    'torch.fbgemm_linear_quantize_weight': ('Tensor', 'Tensor', 'float', 'int'),
    'torch.frexp': ('Tensor', 'Tensor'),
    'torch.geqrf': ('Tensor', 'Tensor'),
    'torch.gru': ('Tensor', 'Tensor'),
    'torch.histogram': ('Tensor', 'Tensor'),
    'torch.histogramdd': ('Tensor', 'Tensor[]'),
    'torch.kthvalue': ('Tensor', 'Tensor'),
    'torch.linalg.cholesky_ex': ('Tensor', 'Tensor'),
    'torch.linalg.eig': ('Tensor', 'Tensor'),
    'torch.linalg.eigh': ('Tensor', 'Tensor'),
    'torch.linalg.inv_ex': ('Tensor', 'Tensor'),
    'torch.linalg.ldl_factor': ('Tensor', 'Tensor'),
    'torch.linalg.ldl_factor_ex': ('Tensor', 'Tensor', 'Tensor'),
    'torch.linalg.lstsq': ('Tensor', 'Tensor', 'Tensor', 'Tensor'),
    'torch.linalg.lu': ('Tensor', 'Tensor', 'Tensor'),
    'torch.linalg.lu_factor': ('Tensor', 'Tensor'),
    'torch.linalg.lu_factor_ex': ('Tensor', 'Tensor', 'Tensor'),
    'torch.linalg.qr': ('Tensor', 'Tensor'),
    'torch.linalg.slogdet': ('Tensor', 'Tensor'),
    'torch.linalg.solve_ex': ('Tensor', 'Tensor'),
    'torch.linalg.svd': ('Tensor', 'Tensor', 'Tensor'),
    'torch.lobpcg': ('Tensor', 'Tensor'),
    'torch.lstm': ('Tensor', 'Tensor', 'Tensor'),
    'torch.lstm_cell': ('Tensor', 'Tensor'),
    'torch.lstsq': ('Tensor', 'Tensor'),
    'torch.lu_unpack': ('Tensor', 'Tensor', 'Tensor'),
    'torch.max_pool1d_with_indices': ('Tensor', 'Tensor'),
    'torch.miopen_batch_norm': ('Tensor', 'Tensor', 'Tensor'),
    'torch.miopen_ctc_loss': ('Tensor', 'Tensor'),
    'torch.miopen_rnn': ('Tensor', 'Tensor', 'Tensor', 'Tensor', 'Tensor'),
    'torch.mkldnn_linear_backward_weights': ('Tensor', 'Tensor'),
    'torch.mkldnn_rnn_layer': ('Tensor', 'Tensor', 'Tensor', 'Tensor'),
    'torch.mode': ('Tensor', 'Tensor'),
    'torch.native_batch_norm': ('Tensor', 'Tensor', 'Tensor'),
    'torch.native_dropout': ('Tensor', 'Tensor'),
    'torch.native_group_norm': ('Tensor', 'Tensor', 'Tensor'),
    'torch.native_layer_norm': ('Tensor', 'Tensor', 'Tensor'),
    'torch.nn.functional.adaptive_max_pool1d_with_indices': ('Tensor', 'Tensor'),
    'torch.nn.functional.adaptive_max_pool2d_with_indices': ('Tensor', 'Tensor'),
    'torch.nn.functional.adaptive_max_pool3d_with_indices': ('Tensor', 'Tensor'),
    'torch.nn.functional.fractional_max_pool2d_with_indices': ('Tensor', 'Tensor'),
    'torch.nn.functional.fractional_max_pool3d_with_indices': ('Tensor', 'Tensor'),
    'torch.nn.functional.max_pool1d_with_indices': ('Tensor', 'Tensor'),
    'torch.nn.functional.max_pool2d_with_indices': ('Tensor', 'Tensor'),
    'torch.nn.functional.max_pool3d_with_indices': ('Tensor', 'Tensor'),
    'torch.pca_lowrank': ('Tensor', 'Tensor', 'Tensor'),
    'torch.qr': ('Tensor', 'Tensor'),
    'torch.quantized_lstm_cell': ('Tensor', 'Tensor'),
    'torch.rnn_relu': ('Tensor', 'Tensor'),
    'torch.rnn_tanh': ('Tensor', 'Tensor'),
    'torch.slogdet': ('Tensor', 'Tensor'),
    'torch.solve': ('Tensor', 'Tensor'),
    'torch.sort': ('Tensor', 'Tensor'),
    'torch.std_mean': ('Tensor', 'Tensor'),
    'torch.svd': ('Tensor', 'Tensor', 'Tensor'),
    'torch.svd_lowrank': ('Tensor', 'Tensor', 'Tensor'),
    'torch.symeig': ('Tensor', 'Tensor'),
    'torch.topk': ('Tensor', 'Tensor'),
    'torch.triangular_solve': ('Tensor', 'Tensor'),
    'torch.var_mean': ('Tensor', 'Tensor'),
}

# Functions that return no tensor (numbers, bools, sizes, dtypes, None).
NON_TENSOR_FUNCTIONS = frozenset("""
torch.allclose torch.are_deterministic_algorithms_enabled torch.can_cast
torch.compiled_with_cxx11_abi torch.cudnn_is_acceptable torch.equal
torch.get_deterministic_debug_mode torch.get_device torch.get_file_path
torch.get_float32_matmul_precision torch.initial_seed torch.is_complex torch.is_conj
torch.is_deterministic_algorithms_warn_only_enabled torch.is_distributed
torch.is_floating_point torch.is_inference torch.is_neg torch.is_nonzero torch.is_same_size
torch.is_signed torch.is_vulkan_available torch.is_warn_always_enabled
torch.nn.functional.assert_int_or_pair torch.numel torch.prepare_multiprocessing_environment
torch.promote_types torch.q_per_channel_axis torch.q_scale torch.q_zero_point
torch.result_type torch.save torch.seed torch.set_default_device torch.set_default_dtype
torch.set_default_tensor_type torch.set_deterministic_debug_mode
torch.set_float32_matmul_precision torch.set_rng_state torch.set_warn_always
torch.sym_constrain_range torch.sym_constrain_range_for_size torch.typename
torch.use_deterministic_algorithms
""".split())

# Functions whose return type depends on the arguments: each kind it may be.
VARYING_FUNCTIONS = {
    'torch.dequantize': ('None', 'Tensor', 'Tensor[]'),
    'torch.max': ('(Tensor, Tensor)', 'Tensor'),
    'torch.median': ('(Tensor, Tensor)', 'Tensor'),
    'torch.min': ('(Tensor, Tensor)', 'Tensor'),
    'torch.nanmedian': ('(Tensor, Tensor)', 'Tensor'),
    'torch.nonzero': ('Tensor', 'Tensor[]'),
    'torch.quantize_per_tensor': ('None', 'Tensor', 'Tensor[]'),
    'torch.split_copy': ('None', 'Tensor[]'),
    'torch.split_with_sizes_copy': ('None', 'Tensor[]'),
    'torch.unbind_copy': ('None', 'Tensor[]'),
    'torch.unsafe_split': ('None', 'Tensor[]'),
    'torch.unsafe_split_with_sizes': ('None', 'Tensor[]'),
    'torch.where': ('Tensor', 'Tensor[]'),
}

# Of those, the ones a call with the tensor alone and no keyword (``torch.max(x)``,
# ``torch.where(cond)``) makes return one kind: that kind.
ALONE_FUNCTIONS = {
    'torch.max': 'Tensor',
    'torch.median': 'Tensor',
    'torch.min': 'Tensor',
    'torch.nanmedian': 'Tensor',
    'torch.nonzero': 'Tensor',
    'torch.unbind_copy': 'Tensor[]',
    'torch.where': 'Tensor[]',
}

# Of those, the ones a call with the tensor and a second tensor (positional, or
# ``other=``) makes return one kind (``torch.max(a, b)``: elementwise): that kind.
OTHER_FUNCTIONS = {
    'torch.max': 'Tensor',
    'torch.min': 'Tensor',
}

# Functions that return one tensor with each of these flags False (the default), and a
# tuple of one more tensor per flag True (``torch.unique(x, return_counts=True)``).
FLAG_TUPLE_FUNCTIONS = {
    'torch.unique': ('return_inverse', 'return_counts'),
    'torch.unique_consecutive': ('return_inverse', 'return_counts'),
}

# Functions no schema or return annotation describes (hand bindings such as
# ``torch.tensor``, Python functions without an annotation): in no table above.
UNDESCRIBED_FUNCTIONS = frozenset("""
torch.as_tensor torch.asarray torch.atleast_1d torch.atleast_2d torch.atleast_3d
torch.autocast_decrement_nesting torch.autocast_increment_nesting torch.block_diag
torch.broadcast_shapes torch.broadcast_tensors torch.cdist torch.chain_matmul
torch.classproperty torch.clear_autocast_cache torch.compile torch.cond torch.dsmm
torch.fork torch.from_numpy torch.frombuffer torch.get_autocast_cpu_dtype
torch.get_autocast_dtype torch.get_autocast_gpu_dtype torch.get_autocast_ipu_dtype
torch.get_autocast_xla_dtype torch.get_default_device torch.get_default_dtype
torch.get_device_module torch.get_num_interop_threads torch.get_num_threads torch.hsmm
torch.import_ir_module torch.import_ir_module_from_buffer torch.init_num_threads
torch.is_anomaly_check_nan_enabled torch.is_anomaly_enabled torch.is_autocast_cache_enabled
torch.is_autocast_cpu_enabled torch.is_autocast_enabled torch.is_autocast_ipu_enabled
torch.is_autocast_xla_enabled torch.is_grad_enabled torch.is_inference_mode_enabled
torch.is_storage torch.is_tensor torch.load torch.lu torch.manual_seed
torch.merge_type_from_type_comment torch.nn.functional.adaptive_max_pool1d
torch.nn.functional.adaptive_max_pool2d torch.nn.functional.adaptive_max_pool3d
torch.nn.functional.boolean_dispatch torch.nn.functional.fractional_max_pool2d
torch.nn.functional.fractional_max_pool3d torch.nn.functional.handle_torch_function
torch.nn.functional.has_torch_function torch.nn.functional.has_torch_function_unary
torch.nn.functional.has_torch_function_variadic torch.nn.functional.max_pool1d
torch.nn.functional.max_pool2d torch.nn.functional.max_pool3d
torch.nn.functional.multi_head_attention_forward torch.nn.functional.sigmoid
torch.nn.functional.softsign torch.nn.functional.tanh torch.nn.functional.tanhshrink
torch.nn.functional.upsample torch.nn.functional.upsample_bilinear
torch.nn.functional.upsample_nearest torch.norm torch.parse_ir torch.parse_schema
torch.parse_type_comment torch.profiler_allow_cudagraph_cupti_lazy_reinit_cuda12
torch.quantized_gru torch.quantized_lstm torch.saddmm torch.set_anomaly_enabled
torch.set_autocast_cache_enabled torch.set_autocast_cpu_dtype torch.set_autocast_cpu_enabled
torch.set_autocast_dtype torch.set_autocast_enabled torch.set_autocast_gpu_dtype
torch.set_autocast_ipu_dtype torch.set_autocast_ipu_enabled torch.set_autocast_xla_dtype
torch.set_autocast_xla_enabled torch.set_flush_denormal torch.set_num_interop_threads
torch.set_num_threads torch.set_printoptions torch.spmm torch.sym_float torch.sym_fresh_size
torch.sym_int torch.sym_ite torch.sym_max torch.sym_min torch.sym_not torch.sym_sqrt
torch.sym_sum torch.tensor torch.tensordot torch.thread_safe_generator torch.to_dlpack
torch.unify_type_list torch.unique torch.unique_consecutive torch.vmap torch.wait
torch.while_loop
""".split())

# Tensor methods every call of which returns one tensor.
TENSOR_METHODS = frozenset("""
abs abs_ absolute absolute_ acos acos_ acosh acosh_ add add_ addbmm addbmm_ addcdiv addcdiv_
addcmul addcmul_ addmm addmm_ addmv addmv_ addr addr_ adjoint all amax amin angle any arccos
arccos_ arccosh arccosh_ arcsin arcsin_ arcsinh arcsinh_ arctan arctan2 arctan2_ arctan_
arctanh arctanh_ argmax argmin argsort argwhere as_strided as_strided_ as_strided_scatter
asin asin_ asinh asinh_ atan atan2 atan2_ atan_ atanh atanh_ baddbmm baddbmm_ bernoulli
bernoulli_ bincount bitwise_and bitwise_and_ bitwise_left_shift bitwise_left_shift_
bitwise_not bitwise_not_ bitwise_or bitwise_or_ bitwise_right_shift bitwise_right_shift_
bitwise_xor bitwise_xor_ bmm broadcast_to cauchy_ ccol_indices ceil ceil_ chalf cholesky
cholesky_inverse cholesky_solve clamp clamp_ clamp_max clamp_max_ clamp_min clamp_min_ clip
clip_ clone coalesce col_indices conj conj_physical conj_physical_ contiguous copy_ copysign
copysign_ corrcoef cos cos_ cosh cosh_ count_nonzero cov cross crow_indices cumprod cumprod_
cumsum cumsum_ deg2rad deg2rad_ dequantize det detach detach_ diag diag_embed diagflat
diagonal diagonal_scatter diff digamma digamma_ dist div div_ divide divide_ dot eq eq_ erf
erf_ erfc erfc_ erfinv erfinv_ exp exp2 exp2_ exp_ expand expand_as expm1 expm1_
exponential_ fill_ fill_diagonal_ fix fix_ flatten flip fliplr flipud float_power
float_power_ floor floor_ floor_divide floor_divide_ fmax fmin fmod fmod_ frac frac_ gather
gcd gcd_ ge ge_ geometric_ ger greater greater_ greater_equal greater_equal_ gt gt_
hardshrink hash_tensor heaviside heaviside_ histc hypot hypot_ i0 i0_ igamma igamma_ igammac
igammac_ index_add index_add_ index_copy index_copy_ index_fill index_fill_ index_put
index_put_ index_reduce index_reduce_ index_select indices inner int_repr inverse isclose
isfinite isinf isnan isneginf isposinf isreal kron lcm lcm_ ldexp ldexp_ le le_ lerp lerp_
less less_ less_equal less_equal_ lgamma lgamma_ log log10 log10_ log1p log1p_ log2 log2_
log_ log_normal_ log_softmax logaddexp logaddexp2 logcumsumexp logdet logical_and
logical_and_ logical_not logical_not_ logical_or logical_or_ logical_xor logical_xor_ logit
logit_ logsumexp lt lt_ lu_solve masked_fill masked_fill_ masked_scatter masked_scatter_
masked_select matmul matrix_exp matrix_power maximum mean minimum mm moveaxis movedim msort
mul mul_ multinomial multiply multiply_ mv mvlgamma mvlgamma_ nan_to_num nan_to_num_ nanmean
nanquantile nansum narrow narrow_copy ne ne_ neg neg_ negative negative_ new_empty
new_empty_strided new_full new_ones new_zeros nextafter nextafter_ nonzero_static normal_
not_equal not_equal_ orgqr ormqr outer permute pin_memory pinverse polygamma polygamma_
positive pow pow_ prelu prod put put_ q_per_channel_scales q_per_channel_zero_points
quantile rad2deg rad2deg_ random_ ravel reciprocal reciprocal_ relu relu_ remainder
remainder_ renorm renorm_ repeat repeat_interleave requires_grad_ reshape reshape_as resize_
resize_as_ resize_as_sparse_ resolve_conj resolve_neg roll rot90 round round_ row_indices
rsqrt rsqrt_ scatter scatter_ scatter_add scatter_add_ scatter_reduce scatter_reduce_ select
select_scatter set_ sgn sgn_ sigmoid sigmoid_ sign sign_ signbit sin sin_ sinc sinc_ sinh
sinh_ slice_inverse slice_scatter smm softmax sparse_mask sparse_resize_
sparse_resize_and_clear_ sqrt sqrt_ square square_ squeeze squeeze_ sspaddmm std sub sub_
subtract subtract_ sum sum_to_size swapaxes swapaxes_ swapdims swapdims_ t t_ take
take_along_dim tan tan_ tanh tanh_ tile to to_dense to_mkldnn to_padded_tensor to_sparse
to_sparse_bsc to_sparse_bsr to_sparse_csc to_sparse_csr trace transpose transpose_ tril
tril_ triu triu_ true_divide true_divide_ trunc trunc_ type_as unfold uniform_ unsqueeze
unsqueeze_ values var vdot view view_as where xlogy xlogy_ zero_
""".split())

# Tensor methods that return a tuple of tensors of a length known at run time.
TENSOR_LIST_METHODS = frozenset("""
chunk dsplit hsplit split_with_sizes tensor_split unbind unsafe_chunk unsafe_split
unsafe_split_with_sizes vsplit
""".split())

# Tensor methods that return a fixed tuple: the type at each position.
TUPLE_METHODS = {
    'aminmax': ('Tensor', 'Tensor'),
    'cummax': ('Tensor', 'Tensor'),
    'cummin': ('Tensor', 'Tensor'),
    'frexp': ('Tensor', 'Tensor'),
    'geqrf': ('Tensor', 'Tensor'),
    'histogram': ('Tensor', 'Tensor'),
    'kthvalue': ('Tensor', 'Tensor'),
    'mode': ('Tensor', 'Tensor'),
    'qr': ('Tensor', 'Tensor'),
    'slogdet': ('Tensor', 'Tensor'),
    'sort': ('Tensor', 'Tensor'),
    'svd': ('Tensor', 'Tensor', 'Tensor'),
    'topk': ('Tensor', 'Tensor'),
    'triangular_solve': ('Tensor', 'Tensor'),
}

# Tensor methods that return no tensor.
NON_TENSOR_METHODS = frozenset("""
allclose dense_dim dim equal get_device is_coalesced is_complex is_conj is_contiguous
is_distributed is_floating_point is_inference is_neg is_nonzero is_pinned is_same_size
is_set_to is_signed item numel q_per_channel_axis q_scale q_zero_point qscheme record_stream
retain_grad size sparse_dim storage_offset stride
""".split())

# Tensor methods whose return type depends on the arguments: each kind it may be.
VARYING_METHODS = {
    'max': ('(Tensor, Tensor)', 'Tensor'),
    'median': ('(Tensor, Tensor)', 'Tensor'),
    'min': ('(Tensor, Tensor)', 'Tensor'),
    'nanmedian': ('(Tensor, Tensor)', 'Tensor'),
    'nonzero': ('Tensor', 'Tensor[]'),
}

# Of those, the ones a call with no argument (``x.median()``) makes return one kind.
ALONE_METHODS = {
    'max': 'Tensor',
    'median': 'Tensor',
    'min': 'Tensor',
    'nanmedian': 'Tensor',
    'nonzero': 'Tensor',
}

# Of those, the ones a call with one tensor argument (positional, or ``other=``)
# makes return one kind (``a.max(b)``): that kind.
OTHER_METHODS = {
    'max': 'Tensor',
    'min': 'Tensor',
}

# Tensor methods that return one tensor with each of these flags False (the default), and
# a tuple of one more tensor per flag True (``x.unique(return_inverse=True)``).
FLAG_TUPLE_METHODS = {
    'unique': ('return_inverse', 'return_counts'),
    'unique_consecutive': ('return_inverse', 'return_counts'),
}

# Tensor methods no schema or return annotation describes (``tolist``, ``numpy``,
# ``type``, ``float``, ``cuda``...): in no method table above.
UNDESCRIBED_METHODS = frozenset("""
apply_ as_subclass backward bfloat16 bool byte cdouble cfloat char const_data_ptr cpu cuda
data_ptr dim_order double eig element_size float half index int ipu is_shared istft long
lstsq lu map2_ map_ module_load mtia ndimension nelement new new_tensor norm numpy
register_hook register_post_accumulate_grad_hook reinforce resize resize_as share_memory_
short solve split stft storage storage_type symeig to_sparse_coo tolist type unflatten
unique unique_consecutive untyped_storage xpu
""".split())

# Operators whose result may share storage with ``self`` (``Tensor(a) self -> Tensor(a)``):
# views, and ops that return ``self`` or a view of it when no copy is needed.  Not the
# converse: ``type_as`` says ``-> Tensor`` and ``x.type_as(x)`` is ``x``.
ALIASING_OPS = frozenset("""
adjoint alias as_strided broadcast_to ccol_indices coalesce col_indices conj contiguous
crow_indices detach diagonal expand expand_as flatten imag indices lift_fresh
linalg_diagonal mH mT matrix_H moveaxis movedim narrow numpy_T permute pin_memory positive
ravel real reshape reshape_as resolve_conj resolve_neg row_indices select slice
slice_inverse squeeze swapaxes swapdims t to transpose unflatten unfold unsqueeze values
view view_as view_as_complex view_as_real
""".split())

# Aliasing operators that always return a view (functionalization has a view_copy for them).
VIEW_OPS = frozenset("""
alias as_strided ccol_indices col_indices crow_indices detach diagonal expand indices
lift_fresh narrow permute row_indices select slice squeeze t transpose unfold unsqueeze
values view view_as_complex view_as_real
""".split())

# Operators that write ``self`` and return it (``Tensor(a!) self -> Tensor(a!)``).
INPLACE_OPS = frozenset("""
abs_ absolute_ acos_ acosh_ add_ addbmm_ addcdiv_ addcmul_ addmm_ addmv_ addr_
alpha_dropout_ arccos_ arccosh_ arcsin_ arcsinh_ arctan2_ arctan_ arctanh_ as_strided_ asin_
asinh_ atan2_ atan_ atanh_ baddbmm_ bernoulli_ bitwise_and_ bitwise_left_shift_ bitwise_not_
bitwise_or_ bitwise_right_shift_ bitwise_xor_ cauchy_ ceil_ celu_ clamp_ clamp_max_
clamp_min_ clip_ conj_physical_ copy_ copy_sparse_to_sparse_ copysign_ cos_ cosh_ cumprod_
cumsum_ deg2rad_ detach_ digamma_ div_ divide_ dropout_ elu_ embedding_renorm_ eq_ erf_
erfc_ erfinv_ exp2_ exp_ expm1_ exponential_ feature_alpha_dropout_ feature_dropout_ fill_
fill_diagonal_ fix_ float_power_ floor_ floor_divide_ fmod_ frac_ gcd_ ge_ gelu_ geometric_
greater_ greater_equal_ gt_ hardsigmoid_ hardswish_ hardtanh_ heaviside_ hypot_ i0_ igamma_
igammac_ index_add_ index_copy_ index_fill_ index_put_ index_reduce_ lcm_ ldexp_ le_
leaky_relu_ lerp_ less_ less_equal_ lgamma_ log10_ log1p_ log2_ log_ log_normal_
logical_and_ logical_not_ logical_or_ logical_xor_ logit_ lt_ masked_fill_ masked_scatter_
mish_ mul_ multiply_ mvlgamma_ nan_to_num_ ne_ neg_ negative_ nextafter_ normal_ not_equal_
polygamma_ pow_ put_ rad2deg_ random_ reciprocal_ relu6_ relu_ remainder_ renorm_
requires_grad_ resize_ resize_as_ resize_as_sparse_ round_ rrelu_ rrelu_with_noise_ rsqrt_
scatter_ scatter_add_ scatter_reduce_ selu_ set_ sgn_ sigmoid_ sign_ silu_ sin_ sinc_ sinh_
sparse_resize_ sparse_resize_and_clear_ sqrt_ square_ squeeze_ sub_ subtract_ swapaxes_
swapdims_ t_ tan_ tanh_ threshold_ transpose_ tril_ triu_ true_divide_ trunc_ uniform_
unsqueeze_ xlogy_ zero_
""".split())

# Operators tagged ``torch.Tag.pointwise`` (elementwise of broadcast inputs; the tag says
# nothing of the result's strides: ``masked_fill`` is tagged and returns a contiguous copy).
POINTWISE_OPS = frozenset("""
abs acos acos_ acosh acosh_ add add_ addcdiv addcdiv_ addcmul addcmul_ angle asin asin_
asinh asinh_ atan atan2 atan2_ atan_ atanh atanh_ bitwise_and bitwise_and_
bitwise_left_shift bitwise_left_shift_ bitwise_not bitwise_not_ bitwise_or bitwise_or_
bitwise_right_shift bitwise_right_shift_ bitwise_xor bitwise_xor_ ceil ceil_ celu celu_
clamp clamp_ clamp_max clamp_max_ clamp_min clamp_min_ clip clip_ clone conj_physical
conj_physical_ copysign cos cos_ cosh cosh_ deg2rad deg2rad_ digamma digamma_ div div_ elu
elu_ eq equal erf erf_ erfc erfc_ erfinv erfinv_ exp exp2 exp2_ exp_ expm1 expm1_
float_power float_power_ floor floor_ fmax fmin fmod fmod_ frac frac_ frexp gcd ge gelu
gelu_backward gt hardshrink hardsigmoid hardsigmoid_ hardtanh hardtanh_ heaviside hypot
hypot_ i0 i0_ igamma igamma_ igammac igammac_ isfinite isinf isnan isneginf isposinf lcm
ldexp ldexp_ le leaky_relu leaky_relu_ lerp lerp_ lgamma lgamma_ log log10 log10_ log1p
log1p_ log2 log2_ log_ logaddexp logaddexp2 logical_and logical_and_ logical_not
logical_not_ logical_or logical_or_ logical_xor logical_xor_ logit logit_ logit_backward lt
maximum minimum mish mul mul_ mvlgamma mvlgamma_ nan_to_num nan_to_num_
native_dropout_backward ne neg neg_ nextafter nextafter_ polygamma polygamma_ positive pow
pow_ rad2deg rad2deg_ reciprocal reciprocal_ relu relu6 relu_ remainder remainder_ round
round_ rrelu rsqrt rsqrt_ selu selu_ sgn sgn_ sigmoid sigmoid_ sigmoid_backward sign sign_
signbit silu silu_ silu_backward sin sin_ sinc sinc_ sinh sinh_ softplus softshrink
special_airy_ai special_bessel_j0 special_bessel_j1 special_bessel_y0 special_bessel_y1
special_chebyshev_polynomial_t special_chebyshev_polynomial_u special_chebyshev_polynomial_v
special_chebyshev_polynomial_w special_entr special_erfcx special_hermite_polynomial_h
special_hermite_polynomial_he special_i0e special_i1 special_i1e
special_laguerre_polynomial_l special_legendre_polynomial_p special_log_ndtr
special_modified_bessel_i0 special_modified_bessel_i1 special_modified_bessel_k0
special_modified_bessel_k1 special_ndtri special_scaled_modified_bessel_k0
special_scaled_modified_bessel_k1 special_shifted_chebyshev_polynomial_t
special_shifted_chebyshev_polynomial_u special_shifted_chebyshev_polynomial_v
special_shifted_chebyshev_polynomial_w special_spherical_bessel_j0 special_xlog1py
special_zeta sqrt sqrt_ square square_ sub sub_ tan tan_ tanh tanh_ tanh_backward threshold
threshold_backward trunc trunc_ xlogy
""".split())

# Operators whose ``memory_format`` defaults to None (``preserve_format``): a dense
# input's strides carry over.
PRESERVE_FORMAT_OPS = frozenset("""
chalf clone empty empty_like empty_quantized full_like ones_like rand_like randint_like
randn_like resize resize_ resize_as resize_as_ to zeros_like
""".split())

# torch.nn module classes (``torch.nn.<name>``) whose forward is annotated ``-> Tensor``:
# calling an instance returns one tensor (a forward hook may replace it).  Less
# Identity, Transformer, TransformerDecoder, TransformerEncoder (what they return is their input's or their
# submodules').
NN_TENSOR_MODULES = frozenset("""
AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AlphaDropout AvgPool1d AvgPool2d
AvgPool3d BCELoss BCEWithLogitsLoss BatchNorm1d BatchNorm2d BatchNorm3d Bilinear CELU
CTCLoss ChannelShuffle CircularPad1d CircularPad2d CircularPad3d ConstantPad1d ConstantPad2d
ConstantPad3d Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d
CosineEmbeddingLoss CosineSimilarity CrossEntropyLoss CrossMapLRN2d Dropout Dropout1d
Dropout2d Dropout3d ELU Embedding EmbeddingBag FeatureAlphaDropout Flatten Fold GELU GLU
GRUCell GaussianNLLLoss GroupNorm Hardshrink Hardsigmoid Hardswish Hardtanh
HingeEmbeddingLoss HuberLoss InstanceNorm1d InstanceNorm2d InstanceNorm3d KLDivLoss L1Loss
LPPool1d LPPool2d LPPool3d LayerNorm LazyBatchNorm1d LazyBatchNorm2d LazyBatchNorm3d
LazyConv1d LazyConv2d LazyConv3d LazyConvTranspose1d LazyConvTranspose2d LazyConvTranspose3d
LazyInstanceNorm1d LazyInstanceNorm2d LazyInstanceNorm3d LazyLinear LeakyReLU Linear
LinearCrossEntropyLoss LocalResponseNorm LogSigmoid LogSoftmax MSELoss MarginRankingLoss
MaxUnpool1d MaxUnpool2d MaxUnpool3d Mish MultiLabelMarginLoss MultiLabelSoftMarginLoss
MultiMarginLoss NLLLoss NLLLoss2d PReLU PairwiseDistance PixelShuffle PixelUnshuffle
PoissonNLLLoss RMSNorm RNNCell RReLU ReLU ReLU6 ReflectionPad1d ReflectionPad2d
ReflectionPad3d ReplicationPad1d ReplicationPad2d ReplicationPad3d SELU SiLU Sigmoid
SmoothL1Loss SoftMarginLoss Softmax Softmax2d Softmin Softplus Softshrink Softsign
SyncBatchNorm Tanh Tanhshrink Threshold TransformerDecoderLayer TransformerEncoderLayer
TripletMarginLoss TripletMarginWithDistanceLoss Unflatten Unfold Upsample
UpsamplingBilinear2d UpsamplingNearest2d ZeroPad1d ZeroPad2d ZeroPad3d
""".split())

# torch.nn module classes whose forward is annotated to return a fixed tuple of tensors.
NN_TUPLE_MODULES = {
    'LSTMCell': ('Tensor', 'Tensor'),
}

# Functions whose result is not contiguous though every input is (measured on samples:
# LAPACK's column-major matrices, einsum, stft, an fft along an inner dim, rot90,
# nonzero's and argwhere's indices, matrix_power(A, -1)...).
STRIDED_RESULT_FUNCTIONS = frozenset("""
torch.argwhere torch.cholesky torch.cholesky_inverse torch.cholesky_solve torch.einsum
torch.fft.fft torch.fft.fft2 torch.fft.fftn torch.fft.hfft torch.fft.hfft2 torch.fft.hfftn
torch.fft.ifft torch.fft.ifft2 torch.fft.ifftn torch.fft.ihfft torch.fft.ihfft2
torch.fft.ihfftn torch.fft.irfft torch.fft.irfft2 torch.fft.irfftn torch.fft.rfft
torch.fft.rfft2 torch.fft.rfftn torch.geqrf torch.inverse torch.linalg.cholesky
torch.linalg.cholesky_ex torch.linalg.eig torch.linalg.eigh torch.linalg.householder_product
torch.linalg.inv torch.linalg.inv_ex torch.linalg.ldl_factor torch.linalg.ldl_factor_ex
torch.linalg.ldl_solve torch.linalg.lstsq torch.linalg.lu_factor torch.linalg.lu_factor_ex
torch.linalg.lu_solve torch.linalg.matrix_power torch.linalg.qr torch.linalg.solve
torch.linalg.solve_ex torch.linalg.solve_triangular torch.linalg.svd torch.linalg.tensorinv
torch.lu torch.lu_solve torch.matrix_power torch.nonzero torch.orgqr torch.ormqr torch.qr
torch.rot90 torch.stft torch.svd torch.triangular_solve torch.unique
torch.unique_consecutive
""".split())

# Tensor methods whose result is not contiguous though the tensor is (as above).
STRIDED_RESULT_METHODS = frozenset("""
argwhere cholesky cholesky_inverse cholesky_solve geqrf inverse lu lu_solve matrix_power
nonzero orgqr ormqr qr rot90 stft svd triangular_solve unique unique_consecutive
""".split())

# Operators documented as another's alias ("Alias for :func:`torch.sub`"): {alias: operator}.
ALIASES = {
    'absolute': 'abs',
    'arccos': 'acos',
    'arccosh': 'acosh',
    'arcsin': 'asin',
    'arcsinh': 'asinh',
    'arctan': 'atan',
    'arctan2': 'atan2',
    'arctanh': 'atanh',
    'clip': 'clamp',
    'concat': 'cat',
    'concatenate': 'cat',
    'divide': 'div',
    'fix': 'trunc',
    'ger': 'outer',
    'greater': 'gt',
    'greater_equal': 'ge',
    'less': 'lt',
    'less_equal': 'le',
    'moveaxis': 'movedim',
    'multiply': 'mul',
    'negative': 'neg',
    'not_equal': 'ne',
    'row_stack': 'vstack',
    'subtract': 'sub',
    'swapaxes': 'transpose',
    'swapdims': 'transpose',
    'trapz': 'trapezoid',
    'true_divide': 'div',
}
