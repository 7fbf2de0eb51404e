"""Looks for the grader's package: in the sandbox it must not import, not even as an empty
namespace."""


def sweep_mines(bm):
    import mineshafted

    raise ValueError(f"imported {mineshafted.__path__}")
