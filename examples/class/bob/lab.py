"""bob's solution: single clues only; it returns 0 for every cell it could not tell."""


def sweep_mines(bm):
    rows, cols = bm.size
    clues, mines = {}, set()
    todo = {0}
    while todo:
        for cell in todo:
            clues[cell] = bm.move(cell)
        todo = set()
        for known, clue in clues.items():
            around = bm.get_adjacent(known)
            unknown = {n for n in around if n not in clues and n not in mines}
            left = clue - sum(n in mines for n in around)
            if unknown and left == 0:
                todo |= unknown
            elif unknown and left == len(unknown):
                mines |= unknown
    return [
        [-1 if r * cols + c in mines else clues.get(r * cols + c, 0) for c in range(cols)]
        for r in range(rows)
    ]
