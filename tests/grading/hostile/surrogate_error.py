"""Raises an exception whose message holds lone surrogates: one that no encoding can write
(``\\udc1b``), and the surrogate-escaped bytes of U+009B (C1 CSI) and U+202E (a right-to-left
override), which a terminal in the POSIX locale would get as those very bytes."""


def sweep_mines(bm):
    raise ValueError("\udc1b[2J\udcc2\udc9b[2J\udce2\udc80\udcaegnp.exe")
