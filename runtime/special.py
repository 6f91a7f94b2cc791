"""yaten.special: the functions of ``torch.special`` yaten has, under torch's names.

They are the spec's aliases named ``special_<name>`` (``special_expit`` of ``sigmoid``,
``special_gammaln`` of ``lgamma``), bound here from the generated namespace: one op, one home.

>>> import yaten
>>> yaten.special.expit(yaten.tensor([0.0]))
tensor([0.5000])
>>> yaten.special.gammaln(yaten.tensor([4.0]))
tensor([1.7918])
"""

from ._install import install_module

install_module(globals(), "special")
del install_module
