"""yaten.nn.functional: the functional form of every layer, as ``torch.nn.functional``.

Ops with a kernel or a derivative live in the spec (spec/native_functions.yaml) and are reached here
through the generated namespace; what is written here is argument handling and composition, one
family per module (activation, gated, linear, dropout, sparse, loss, conv, pooling,
normalization, attention, distance, sampling, vision), re-exported here so that ``yaten.nn.functional.relu`` and
``from yaten.nn import functional as F`` reach every function.
"""

# ruff: noqa: F401 (this file only re-exports)

from ._reduction import _legacy_reduction, _reduction_enum
from .activation import (
    celu,
    celu_,
    elu,
    elu_,
    gelu,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    log_softmax,
    logsigmoid,
    mish,
    relu,
    relu6,
    relu_,
    rrelu,
    rrelu_,
    selu,
    selu_,
    sigmoid,
    silu,
    softmax,
    softmin,
    softplus,
    softshrink,
    softsign,
    tanh,
    tanhshrink,
    threshold,
    threshold_,
)
from .attention import multi_head_attention_forward, scaled_dot_product_attention
from .conv import conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d
from .distance import cosine_similarity, normalize, pairwise_distance, pdist
from .dropout import alpha_dropout, dropout, dropout1d, dropout2d, dropout3d, feature_alpha_dropout
from .gated import glu, prelu
from .linear import bilinear, linear
from .loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cosine_embedding_loss,
    cross_entropy,
    ctc_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    huber_loss,
    kl_div,
    l1_loss,
    linear_cross_entropy,
    margin_ranking_loss,
    mse_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    nll_loss,
    poisson_nll_loss,
    smooth_l1_loss,
    soft_margin_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)
from .normalization import batch_norm, group_norm, instance_norm, layer_norm, local_response_norm, rms_norm
from .pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d,
    adaptive_max_pool3d_with_indices,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    fractional_max_pool2d,
    fractional_max_pool2d_with_indices,
    fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_pool1d,
    max_pool1d_with_indices,
    max_pool2d,
    max_pool2d_with_indices,
    max_pool3d,
    max_pool3d_with_indices,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from .sampling import affine_grid, grid_sample, gumbel_softmax
from .sparse import embedding, embedding_bag, one_hot
from .vision import (
    channel_shuffle,
    fold,
    interpolate,
    native_channel_shuffle,
    pad,
    pixel_shuffle,
    pixel_unshuffle,
    unfold,
    upsample,
    upsample_bilinear,
    upsample_nearest,
)
