"""GradScaler's ops, as torch's: unscaling gradients while looking for infs and NaNs, and growing or
backing off the loss scale. Written in yaten ops, so they run on every device."""

import yaten

from .. import _dtype as D


def _check_one_float(name: str, t) -> None:
    if t.numel() != 1:
        raise RuntimeError(f"{name} must be a 1-element tensor.")
    if t.dtype is not D.float32:
        raise RuntimeError(f"{name} must be a float tensor.")


def amp_foreach_non_finite_check_and_unscale_(self, found_inf, inv_scale):
    """Multiplies every tensor of ``self`` by ``inv_scale`` in place; sets ``found_inf`` to 1 when one
    of them holds an inf or a NaN."""
    _check_one_float("found_inf", found_inf)
    _check_one_float("inv_scale", inv_scale)
    for t in self:
        if not t.dtype.is_floating_point:
            raise NotImplementedError(
                f"\"_amp_foreach_non_finite_check_and_unscale_cpu\" not implemented for '{D.LEGACY_NAME[t.dtype]}'"
            )
    with yaten.no_grad():
        for t in self:
            bad = yaten.logical_not(yaten.isfinite(t)).any()
            found_inf.copy_(yaten.where(bad, yaten.ones_like(found_inf), found_inf))
            t.mul_(inv_scale)


def amp_update_scale_(
    self, growth_tracker, found_inf, scale_growth_factor, scale_backoff_factor, growth_interval
):
    """The loss scale after a step: backed off (and the tracker reset) when ``found_inf`` is set, grown
    after ``growth_interval`` clean steps in a row (when the grown scale is finite). Returns ``self``."""
    if growth_tracker.numel() != 1:
        raise RuntimeError("growth_tracker must be a 1-element tensor.")
    if growth_tracker.dtype is not D.int32:
        raise RuntimeError("growth_tracker must be an int tensor.")
    if self.numel() != 1:
        raise RuntimeError("current_scale must be a 1-element tensor.")
    if self.dtype is not D.float32:
        raise RuntimeError("current_scale must be a float tensor.")
    _check_one_float("found_inf", found_inf)
    with yaten.no_grad():
        if found_inf.item():
            self.mul_(scale_backoff_factor)
            growth_tracker.fill_(0)
            return self
        successful = growth_tracker.item() + 1
        if successful == growth_interval:
            grown = self * scale_growth_factor
            if yaten.isfinite(grown).item():
                self.copy_(grown)
            successful = 0
        growth_tracker.fill_(successful)
    return self
