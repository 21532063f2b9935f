"""The TRC201 census's undecided permuted views (issue 18): why each stays undecided.

Each row is a minimal replica of corpus sites (named in ``sites``) whose view the analysis
leaves undecided.  For each, torch runs the replica under two bindings the code can make
(a config value, an unknown layer's output, a size it reads from a tensor): under one the
view works, under the other it raises where ``reshape`` would not.  Neither "legal" (quiet
by proof) nor "raising" (a report) is then true for every binding, so "unknown" is the
only sound verdict; the test asserts the analysis gives it.  Element counts match in both
bindings: a mismatch raises for ``reshape`` too and would prove nothing.  Unknown layers
return contiguous tensors here, as the analysis assumes of every untraced tensor.
"""
import itertools
import textwrap

import pytest
import torch
import torch.nn.functional as F

NOT_VIEWABLE = "view size is not compatible"


class _Layer:
    """An unknown layer: returns whatever the binding says."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *a, **k):
        return self.fn(*a)


class _Module:
    """``self`` of a replica: config values and layers as attributes."""

    def __init__(self, **attrs):
        self.__dict__.update(attrs)


# sam2_video 2506/2518/2710, edgetam_video 2890/2902/3098, sam3_tracker_video 2521/2533/2725
# and their modular files: legal iff self.hidden_dim is the channel count (a config value)
SAM2 = '''
import torch

class M:
    def f(self, current_vision_features):
        batch_size = current_vision_features.size(1)
        height, width = self.backbone_feature_sizes[-1]
        return current_vision_features.permute(1, 2, 0).view(batch_size, self.hidden_dim, height, width)
'''

# swin2sr 138: legal iff self.embed_dim is the channel count
SWIN2SR = '''
import torch

class M:
    def f(self, embeddings, x_size):
        batch_size, height_width, num_channels = embeddings.shape
        return embeddings.transpose(1, 2).view(batch_size, self.embed_dim, x_size[0], x_size[1])
'''

# step3p7 431 (modular 811): batch_size is pixel_values' batch; hidden_state comes out of
# unknown layers, whose batch it must keep for the view to work
STEP3P7 = '''
import torch

class M:
    def f(self, pixel_values):
        batch_size, _, height, width = pixel_values.shape
        grid_h = height // self.patch_size
        grid_w = width // self.patch_size
        hidden_state = self.embeddings(pixel_values)
        channels = hidden_state.shape[-1]
        return hidden_state.permute(0, 2, 1).view(batch_size, channels, grid_h, grid_w)
'''

# clipseg 582 (modular 376): the batch is read from another tensor than the one viewed
CLIPSEG = '''
import math
import torch

class M:
    def f(self, output, conditional_embeddings):
        output = self.layer(output)
        output = output[:, 1:, :].transpose(1, 2)
        size = int(math.sqrt(output.shape[2]))
        batch_size = conditional_embeddings.shape[0]
        return output.view(batch_size, output.shape[1], size, size)
'''

# diffusers uvit_2d 354: the attention block's output must keep (b, h * w, c)
UVIT = '''
import torch

class M:
    def f(self, x):
        batch_size, channels, height, width = x.shape
        x = x.view(batch_size, channels, height * width).permute(0, 2, 1)
        x = self.attention_block(x)
        return x.permute(0, 2, 1).view(batch_size, channels, height, width)
'''

# timm efficientvit_msra 377: self.attn's output must keep the windows' shape
EFFICIENTVIT = '''
import torch

class M:
    def f(self, x):
        B, C, H, W = x.shape
        ws = self.resolution
        x = x.permute(0, 2, 3, 1)
        pad_b = (ws - H % ws) % ws
        pad_r = (ws - W % ws) % ws
        x = torch.nn.functional.pad(x, (0, 0, 0, pad_r, 0, pad_b))
        pH, pW = H + pad_b, W + pad_r
        nH = pH // ws
        nW = pW // ws
        x = x.view(B, nH, ws, nW, ws, C).transpose(2, 3)
        x = x.reshape(B * nH * nW, ws, ws, C).permute(0, 3, 1, 2)
        x = self.attn(x)
        return x.permute(0, 2, 3, 1).view(B, nH, nW, ws, ws, C)
'''

# diffusers pipeline_z_image_omni 333: legal for every positive shape (the slice is the
# whole dim, or as long as the view's rows, which forces a batch of 1), but shape holds
# values from a processor: shape[0] == -1 makes the slice end before the last 4 rows
ZIMAGE = '''
import torch

class M:
    def f(self, images: list[torch.Tensor]):
        embeds = []
        for image in images:
            inputs = self.processor(image)
            shape = inputs.spatial_shapes[0]
            hidden_state = self.siglip(inputs).last_hidden_state
            B, N, C = hidden_state.shape
            hidden_state = hidden_state[:, : shape[0] * shape[1]]
            embeds.append(hidden_state.view(shape[0], shape[1], C))
        return embeds
'''

# timm cond_conv2d 120: out is F.conv2d's of a batch-1 input (batch 1: the view splits one
# dim, legal) on one path, conv2d_same's (another module) on the other; a batch above 1
# makes it raise, so only a fact about conv2d_same would decide it
CONDCONV = '''
import torch
import torch.nn.functional as F

class M:
    def f(self, x, weight):
        B, C, H, W = x.shape
        x = x.reshape(1, B * C, H, W)
        if self.dynamic_padding:
            out = self.conv2d_same(x, weight, groups=B)
        else:
            out = F.conv2d(x, weight, groups=B)
        return out.permute([1, 0, 2, 3]).view(B, self.out_channels, out.shape[-2], out.shape[-1])
'''

# llava_onevision 620 (modular 483): legal iff seq_len == height * width (config values),
# so that the channel count after the first view is dim
LLAVA = '''
import math
import torch
from torch import nn

class M:
    def f(self, image_features):
        height = width = self.image_size // self.patch_size
        batch_frames, seq_len, dim = image_features.shape
        image_features = image_features.view(batch_frames, height, width, -1)
        image_features = image_features.permute(0, 3, 1, 2).contiguous()
        height, width = image_features.shape[2:]
        scaled_shape = [math.ceil(height / 2), math.ceil(width / 2)]
        image_features = nn.functional.interpolate(image_features, size=scaled_shape, mode="bilinear")
        image_features = image_features.permute(0, 2, 3, 1)
        return image_features.view(batch_frames, -1, dim)
'''

# phi4_multimodal 519 (modular 589): legal iff self.image_dim_out is the channel count the
# compression layer gives
PHI4 = '''
import math
import numpy as np
import torch

class M:
    def get_img_features(self, img_embeds):
        patch_feature = self.img_processor(img_embeds)
        width = int(math.sqrt(patch_feature.size(1)))
        patch_feature = patch_feature.view(-1, width, width, patch_feature.size(-1))
        patch_feature = patch_feature.permute(0, 3, 1, 2)
        patch_feature = self.image_token_compression(patch_feature)
        patch_feature = patch_feature.permute(0, 2, 3, 1)
        return patch_feature.view(-1, patch_feature.size(1) * patch_feature.size(2), patch_feature.size(-1))

    def f(self, image_pixel_values: torch.Tensor) -> torch.Tensor:
        batch_size = image_pixel_values.shape[0]
        img_features = self.get_img_features(image_pixel_values.flatten(0, 1))
        base_feat_size = int(np.sqrt(img_features.shape[1]))
        return img_features.view(batch_size, -1, base_feat_size**2, self.image_dim_out)
'''


def _phi4(dim_out):
    return ((torch.randn(1, 2, 16, 3),), dict(img_processor=_Layer(lambda t: t),
                                              image_token_compression=_Layer(lambda t: F.avg_pool2d(t.contiguous(), 2)),
                                              image_dim_out=dim_out))


def _siglip(hidden, shape):
    """z_image's binding: a processor giving ``spatial_shapes``, a model giving ``hidden``."""
    attrs = dict(processor=_Layer(lambda image: _Module(spatial_shapes=[shape])),
                 siglip=_Layer(lambda inputs: _Module(last_hidden_state=hidden)))
    return (([None],), attrs)


ROWS = [
    # (replica, f's arguments, self's attributes for a working binding; for a raising one)
    pytest.param(SAM2, ((torch.randn(6, 2, 4),), dict(backbone_feature_sizes=[(2, 3)], hidden_dim=4)),
                 ((torch.randn(6, 2, 4),), dict(backbone_feature_sizes=[(4, 3)], hidden_dim=2)),
                 id="sam2-edgetam-sam3"),
    pytest.param(SWIN2SR, ((torch.randn(2, 6, 4), (2, 3)), dict(embed_dim=4)),
                 ((torch.randn(2, 6, 4), (3, 4)), dict(embed_dim=2)), id="swin2sr"),
    pytest.param(STEP3P7,
                 ((torch.randn(1, 3, 8, 4),), dict(patch_size=2, embeddings=_Layer(lambda p: torch.randn(1, 8, 2)))),
                 ((torch.randn(1, 3, 8, 4),), dict(patch_size=2, embeddings=_Layer(lambda p: torch.randn(2, 4, 2)))),
                 id="step3p7"),
    pytest.param(CLIPSEG,
                 ((torch.randn(2, 3, 4), torch.randn(2, 5)), dict(layer=_Layer(lambda o: torch.randn(2, 5, 4)))),
                 ((torch.randn(2, 3, 4), torch.randn(4, 5)), dict(layer=_Layer(lambda o: torch.randn(2, 3, 4)))),
                 id="clipseg"),
    pytest.param(UVIT, ((torch.randn(2, 3, 2, 2),), dict(attention_block=_Layer(lambda t: t + 1))),
                 ((torch.randn(2, 3, 2, 2),), dict(attention_block=_Layer(lambda t: torch.randn(3, 2, 4)))),
                 id="uvit"),
    pytest.param(EFFICIENTVIT, ((torch.randn(1, 3, 4, 4),), dict(resolution=2, attn=_Layer(lambda t: t * 2))),
                 ((torch.randn(1, 3, 4, 4),), dict(resolution=2, attn=_Layer(lambda t: torch.randn(2, 4, 2, 3)))),
                 id="efficientvit"),
    pytest.param(ZIMAGE, _siglip(torch.randn(1, 10, 3), (2, 3)), _siglip(torch.randn(2, 10, 3), (-1, 4)),
                 id="z_image"),
    pytest.param(LLAVA, ((torch.randn(1, 16, 2),), dict(image_size=8, patch_size=2)),
                 ((torch.randn(1, 32, 2),), dict(image_size=8, patch_size=2)), id="llava_onevision"),
    pytest.param(PHI4, _phi4(3), _phi4(6), id="phi4_multimodal"),
    pytest.param(CONDCONV, ((torch.randn(2, 3, 4, 4), torch.randn(2 * 5, 3, 1, 1)),
                            dict(dynamic_padding=False, out_channels=5)),
                 ((torch.randn(2, 3, 4, 4), torch.randn(2 * 5, 3, 1, 1)),
                  dict(dynamic_padding=True, out_channels=5,
                       conv2d_same=_Layer(lambda x, w: torch.randn(2, 5, 4, 4)))), id="cond_conv2d"),
]


def _call(src, attrs, args):
    ns: dict = {}
    exec(compile(textwrap.dedent(src), "<replica>", "exec"), ns)
    obj = ns["M"]()
    obj.__dict__.update(attrs)
    return obj.f(*args)


@pytest.mark.parametrize("src, works, raises", ROWS)
def test_undecided_views_work_for_some_bindings_and_raise_for_others(src, works, raises):
    assert _call(src, works[1], works[0]) is not None
    with pytest.raises(RuntimeError, match=NOT_VIEWABLE):
        _call(src, raises[1], raises[0])


@pytest.mark.parametrize("src, works, raises", ROWS)
def test_the_analysis_leaves_them_undecided(view_verdicts, ungated, src, works, raises):
    # the gates off: z_image's text holds no trigger word (the tool skips it)
    verdicts, findings = view_verdicts(textwrap.dedent(src))
    assert verdicts and verdicts[-1] == "unknown", verdicts
    assert not findings


def test_the_conv_path_alone_always_works():
    """cond_conv2d's F.conv2d path: batch 1 in, batch 1 out, so the view only splits a dim
    (torch skips size-1 dims): it works for every size tried."""
    for b, c, oc, h in [(1, 1, 1, 1), (2, 3, 5, 4), (3, 2, 1, 5), (4, 1, 2, 3), (2, 2, 2, 1)]:
        x, w = torch.randn(b, c, h, h), torch.randn(b * oc, c, 1, 1)
        out = F.conv2d(x.reshape(1, b * c, h, h), w, groups=b)
        assert out.permute([1, 0, 2, 3]).view(b, oc, out.shape[-2], out.shape[-1]).shape == (b, oc, h, h)


def test_z_image_views_work_for_every_positive_shape():
    """z_image's slice ``[:, :k]`` of a contiguous ``(B, N, C)`` with ``k = s0 * s1 >= 0``
    keeps ``min(N, k)`` rows: all
    of them (the slice is the tensor) or ``k`` (then the element counts force a batch of
    1); either way ``view(s0, s1, C)`` works wherever ``reshape`` does.  Only a negative
    value (the -1 of the raising binding above) breaks it."""
    tried = 0
    for b, n, c, s0, s1 in itertools.product(range(4), range(7), range(3), range(4), range(4)):
        h = torch.randn(b, n, c)[:, : s0 * s1]
        try:
            h.reshape(s0, s1, c)
        except RuntimeError:
            continue  # the counts differ: the view raises as reshape does
        assert h.view(s0, s1, c).shape == (s0, s1, c)
        tried += 1
    assert tried > 100
