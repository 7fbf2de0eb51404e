"""The JSON API through an ASGI test client: every endpoint, and every kind of bad input answered
with a 4xx (413 too large, 503 past the budget) and one line, never a 500 or a traceback."""

from __future__ import annotations

import asyncio
import json
import warnings
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
with warnings.catch_warnings():  # Starlette 1.x asks for httpx2; httpx serves every version
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

from mineshafted.web import schema
from mineshafted.web.app import CSP, create_app
from mineshafted.web.limits import Limits

EXPERT_STALL = {
    "board": [
        [0, 0, 1, None, None, None],
        [0, 0, 1, None, None, None],
        [1, 1, 2, None, None, None],
        [None, None, None, None, None, None],
    ],
    "mines": 5,
}


@pytest.fixture
def client(api: TestClient) -> TestClient:
    """The web tests' app (:func:`.conftest.api`)."""
    return api


def _error(response: Any, status: int) -> str:
    """The one-line refusal of ``response``, after checking its status and shape."""
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"error"}, body
    message = body["error"]
    assert isinstance(message, str) and "\n" not in message and "Traceback" not in message
    return message


def _post(client: TestClient, url: str, data: object) -> Any:
    return client.post(url, json=data)


# -- the page and its security ----------------------------------------------------------------


@pytest.mark.slow  # over 0.5 s on a quiet machine: CI runs it
def test_the_page_and_its_assets_are_served_with_the_security_policy(client: TestClient) -> None:
    for path, kind in (
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/app.css", "text/css"),
    ):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith(kind)
        assert response.headers["content-security-policy"] == CSP
        assert response.headers["x-content-type-options"] == "nosniff"


def test_the_security_policy_allows_nothing_from_elsewhere() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CSP.split(";"))
    assert directives["default-src"] == "'none'"
    for name in ("script-src", "style-src", "connect-src"):
        assert directives[name] == "'self'"
    assert "http" not in CSP and "*" not in CSP


def test_errors_and_api_answers_carry_the_security_policy_too(client: TestClient) -> None:
    assert client.get("/nowhere").headers["content-security-policy"] == CSP
    assert _post(client, "/api/analyze", EXPERT_STALL).headers["content-security-policy"] == CSP


def test_an_unknown_path_is_a_404_in_one_line(client: TestClient) -> None:
    assert _error(client.get("/etc/passwd"), 404) == "Not Found"
    assert _error(client.get("/api/games/x/../../etc"), 404)


def test_the_api_document_lists_every_endpoint(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    page = client.get("/api").text
    wanted = {
        ("post", "/api/analyze"),
        ("post", "/api/explain"),
        ("post", "/api/load"),
        ("post", "/api/survey"),
        ("post", "/api/knowledge"),  # the survey's old path
        ("get", "/api/config"),
        ("post", "/api/games"),
        ("get", "/api/games/{key}"),
        ("delete", "/api/games/{key}"),
        ("post", "/api/games/{key}/reveal"),
        ("post", "/api/games/{key}/flag"),
        ("post", "/api/games/{key}/chord"),
        ("post", "/api/games/{key}/hint"),
        ("post", "/api/games/{key}/review"),
        ("post", "/api/watch"),
        ("get", "/api/watch/{key}"),
        ("post", "/api/watch/{key}/step"),
        ("post", "/api/watch/{key}/takeover"),
        ("post", "/api/learn"),
        ("get", "/api/learn/puzzles"),
    }
    found = {(m, p) for p, ops in document["paths"].items() for m in ops}
    assert found == wanted
    for method, path in wanted:
        assert f"{method.upper()} {path}" in page
    assert "requestBody" in document["paths"]["/api/analyze"]["post"]
    assert "<script" not in page


def test_the_config_lists_players_levels_and_limits(client: TestClient) -> None:
    config = schema.ConfigOut.model_validate(client.get("/api/config").json())
    assert config.players[0] == "policy:best" and "kb" in config.players
    assert config.levels["expert"] == [16, 30, 99]


def test_a_bug_is_a_500_in_one_line_without_its_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken() -> None:
        raise RuntimeError("a bug\nTraceback (most recent call last): secret")

    monkeypatch.setattr("mineshafted.web.routes.play.first_hint", broken)
    # Not entered (``with``): the app's lifespan, and so its workers, never start; a new
    # game and its first hint need none.
    buggy = TestClient(create_app(Limits(workers=1)), raise_server_exceptions=False)
    game = _post(buggy, "/api/games", {"rows": 9, "cols": 9, "mines": 10}).json()
    message = _error(buggy.post(f"/api/games/{game['id']}/hint"), 500)
    assert message == "internal error (RuntimeError): see the server's log"


def test_a_host_this_machine_does_not_answer_to_is_refused() -> None:
    app = create_app(Limits(workers=1), hosts=["127.0.0.1", "localhost"])
    # Not entered: the page needs no worker, so none is started.
    assert TestClient(app, base_url="http://127.0.0.1:8765").get("/").status_code == 200
    other = TestClient(app, base_url="http://evil.example:8765")
    assert "does not answer to the host" in _error(other.get("/"), 400)


# -- analyze ----------------------------------------------------------------------------------


def test_analyze_answers_odds_decided_cells_and_the_best_move(client: TestClient) -> None:
    answer = schema.AnalysisOut.model_validate(_post(client, "/api/analyze", EXPERT_STALL).json())
    probabilities = answer.probabilities
    assert probabilities[0][0] is None and probabilities[3][0] is not None
    for r, c in answer.safe:
        assert probabilities[r][c] == 0.0
    for r, c in answer.mines:
        assert probabilities[r][c] == 1.0
    assert answer.best is not None
    r, c = answer.best
    assert probabilities[r][c] == answer.best_probability
    if answer.safe:
        assert answer.best == answer.safe[0]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"", 400, "not JSON"),
        (b"{", 400, "not JSON: Expecting property name"),
        (b"\xff\xfe", 400, "the body is not UTF-8 text (byte 0)"),
        (b"[" * 100_000 + b"]" * 100_000, 400, "nested too deeply"),
        (b'{"board": [[0, null]], "mines": ' + b"9" * 5000 + b"}", 400, "5000 digits"),
        (b"[1, 2]", 422, "a position is a JSON object, not an array"),
        (b'{"board": [[0, null]]}', 422, "field 'mines': missing"),
        (b'{"board": [[0, null]], "mines": 1, "x": 1}', 422, "field 'x': unknown field"),
        (b'{"board": [], "mines": 1}', 422, "a board is a non-empty array of rows"),
        (b'{"board": [[0, 1], [0]], "mines": 1}', 422, "row 1 has 1 cells but row 0 has 2"),
        (b'{"board": [[0, 9]], "mines": 1}', 422, "row 0, column 1: 9 is not a clue 0-8"),
        (b'{"board": [[0, "1"]], "mines": 1}', 422, 'row 0, column 1: "1" is not a clue'),
        (b'{"board": [[0, true]], "mines": 1}', 422, "true is not a clue"),
        (b'{"board": [[0, null]], "mines": -1}', 422, "-1 is not a mine total"),
        (b'{"board": [[0, null]], "mines": 1.5}', 422, "1.5 is not a mine total"),
        (b'{"board": [[3, null]], "mines": 1}', 422, "clue 3 needs 3 more mine(s)"),
        (b'{"board": [[1, null], [null, null]], "mines": 9}', 422, "at most 1 fit"),
        (b'{"board": [[-1, -1]], "mines": 1}', 422, "2 are known"),
    ],
)
def test_analyze_refuses_each_bad_position_in_one_line(
    client: TestClient, body: bytes, status: int, message: str
) -> None:
    response = client.post(
        "/api/analyze", content=body, headers={"content-type": "application/json"}
    )
    assert message in _error(response, status)


def test_a_position_over_the_cell_cap_is_refused_before_counting(client: TestClient) -> None:
    board = [[None] * 1001 for _ in range(1000)]
    response = _post(client, "/api/analyze", {"board": board, "mines": 1})
    assert _error(response, 422).endswith("1000x1001: more than 1,000,000 cells")


def test_a_body_over_8_mib_is_refused_413_from_its_declared_length(client: TestClient) -> None:
    body = b"[" + b"0," * (4 * 2**20) + b"0]"
    response = client.post(
        "/api/analyze", content=body, headers={"content-type": "application/json"}
    )
    assert "larger than 8,388,608 bytes" in _error(response, 413)


def test_a_streamed_body_over_8_mib_is_refused_413_without_reading_it_all() -> None:
    # Straight through ASGI (a test client gathers the whole body before the app sees it):
    # no Content-Length, 1,000 chunks of 64 KiB offered; the app stops taking them at 8 MiB.
    app = create_app(Limits(workers=1))
    taken = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal taken
        taken += 1
        return {"type": "http.request", "body": b" " * 2**16, "more_body": taken < 1000}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/analyze",
        "raw_path": b"/api/analyze",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8765),
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    assert sent[0]["status"] == 413
    assert b"larger than 8,388,608 bytes" in sent[1]["body"]
    assert taken == 8 * 16 + 1  # 8 MiB in 128 chunks, and the one that passed the limit


def test_a_post_not_declared_json_is_refused_415(client: TestClient) -> None:
    response = client.post(
        "/api/analyze",
        content=json.dumps(EXPERT_STALL),
        headers={"content-type": "text/plain"},
    )
    assert "application/json (not text/plain)" in _error(response, 415)


def test_a_wrong_method_is_refused_in_one_line(client: TestClient) -> None:
    assert _error(client.get("/api/analyze"), 405) == "Method Not Allowed"


@pytest.mark.slow
def test_a_position_beyond_the_compute_budget_is_a_503_and_the_server_goes_on() -> None:
    side = 24  # one frontier of 432 unknowns: counting it exactly takes far longer than 1 s
    board = [[1 if r % 2 == 0 and c % 2 == 0 else None for c in range(side)] for r in range(side)]
    with TestClient(create_app(Limits(seconds=1.0, workers=2, memory=1024))) as budgeted:
        response = _post(budgeted, "/api/analyze", {"board": board, "mines": 144})
        message = _error(response, 503)
        assert "did not finish within 1 s" in message and "too wide to count" in message
        # That worker was killed (and another is booting in its place): the server answers.
        again = _post(budgeted, "/api/analyze", {"board": [[1, None]], "mines": 1})
        assert again.status_code == 200, again.text


@pytest.mark.slow  # about 3 s of counting before the estimate passes the budget
def test_a_position_too_wide_to_count_in_memory_is_a_413_with_the_reason(
    client: TestClient,
) -> None:
    side = 16  # one frontier of 192 unknowns: its tables would pass the 512 MiB budget
    board = [[1 if r % 2 == 0 and c % 2 == 0 else None for c in range(side)] for r in range(side)]
    message = _error(_post(client, "/api/analyze", {"board": board, "mines": 32}), 413)
    assert message.startswith("counting its placements would take more than 512 MiB")
    assert "(192 unknown cells) is too wide to count exactly" in message
    document = client.get("/openapi.json").json()
    refusals = document["paths"]["/api/analyze"]["post"]["responses"]
    assert "too large to count" in refusals["413"]["description"]


# -- explain ----------------------------------------------------------------------------------


def test_explain_answers_the_clues_the_technique_and_a_sentence(client: TestClient) -> None:
    body = {"board": [[None, None, None], [1, 1, 1]], "mines": 1, "cell": [0, 2]}
    answer = schema.ExplanationOut.model_validate(_post(client, "/api/explain", body).json())
    assert answer.cell == [0, 2] and answer.value == "safe"
    assert sorted(answer.clues) == [[1, 0], [1, 1]]
    assert answer.uses_total is False and answer.technique == "subset"
    assert answer.steps == [
        "The 1 at row 2, column 1 needs 1 mine among row 1, columns 1 and 2.",
        "The 1 at row 2, column 2 needs 1 mine among row 1, columns 1 to 3, so row 1, column 3 "
        "is safe.",
    ]
    assert answer.text == " ".join(["Row 1, column 3 is safe.", *answer.steps])
    assert answer.cells == [[0, 0], [0, 1]]  # the unknown cells the steps name besides (0, 2)


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        (None, "cell: missing"),
        ([0], "cell: [0] is not a cell [row, column]"),
        (["0", 1], 'cell: ["0", 1] is not a cell'),
        ([0, 1.0], "is not a cell"),
        ([5, 0], "cell: [5, 0] is off the 2x3 board (rows 0..1, columns 0..2)"),
        ([1, 0], "(1, 0) is a revealed clue (1), not an unknown cell"),
    ],
)
def test_explain_refuses_a_cell_it_cannot_explain_with_a_422(
    client: TestClient, cell: object, message: str
) -> None:
    body: dict[str, object] = {"board": [[None, None, None], [1, 1, 1]], "mines": 1}
    if cell is not None:
        body["cell"] = cell
    assert message in _error(_post(client, "/api/explain", body), 422)


def test_explain_refuses_a_cell_not_decided_with_its_probability(client: TestClient) -> None:
    body = {"board": [[1, None], [None, None]], "mines": 1, "cell": [1, 1]}
    message = _error(_post(client, "/api/explain", body), 422)
    assert message == "(1, 1) is not decided by the position: its mine probability is 1/3"


# -- load -------------------------------------------------------------------------------------


def test_load_reads_a_text_grid_a_position_a_puzzle_and_a_record(client: TestClient) -> None:
    def load(text: str, mines: int | None = None) -> schema.LoadOut:
        response = _post(client, "/api/load", {"text": text, "mines": mines})
        assert response.status_code == 200, response.text
        return schema.LoadOut.model_validate(response.json())

    grid = load(". 1 ? ?\n. 1 F ?\n", mines=2)
    assert grid.kind == "text" and grid.board == [[0, 1, None, None], [0, 1, -1, None]]
    assert grid.mines == 2
    # The clues allow one mine (the flag) to three: a total outside is moved into that range.
    assert load(". 1 ? ?\n. 1 F ?\n", mines=9).mines == 3
    assert load(". 1 ? ?\n. 1 F ?\n", mines=0).mines == 1
    assert load(json.dumps(EXPERT_STALL)).board == EXPERT_STALL["board"]
    puzzle = load('{"board": [[0, 0, 1, -1], [0, 0, 1, 1]]}')
    assert puzzle.kind == "puzzle" and puzzle.board == [[0, 0, 1, None], [0, 0, 1, None]]
    game = _post(client, "/api/games", {"rows": 5, "cols": 5, "mines": 3, "seed": 1}).json()
    _post(client, f"/api/games/{game['id']}/reveal", {"cell": [2, 2]})
    shown = client.get(f"/api/games/{game['id']}").json()["board"]
    from mineshafted.game import Game, Rules

    played = Game.draw(5, 5, 3, rules=Rules.CLASSIC, seed=1)
    played.reveal(12)
    record = "\n".join(played.record.lines())
    loaded = load(record)
    assert loaded.kind == "record" and loaded.board == shown and loaded.mines == 3


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "text: missing"),
        ({"text": 5}, "text: a number is not a string"),
        ({"text": "   "}, "text: empty"),
        ({"text": "1 x"}, "line 1, column 3: 'x' is not a clue 0-8"),
        ({"text": "3 ?"}, "text: row 0, column 0: clue 3 needs 3 more mine(s)"),
        ({"text": "1 1\n1"}, "line 2 has 1 cells but the first row has 2"),
        ({"text": "{nonsense"}, "not valid JSON"),
        ({"text": '{"board": [[0, 9]], "mines": 1}'}, "9 is not a clue 0-8"),
        ({"text": ". 1", "mines": -2}, "mines: -2 is not an integer 0 or more"),
        ({"text": ". 1", "path": "/etc/passwd"}, "path: unknown field"),
        (
            {"text": json.dumps({"format": "mineshafted-game", "rows": 10**5, "cols": 10**5})},
            "a 100000x100000 board: more than 1,000,000 cells",
        ),
    ],
)
def test_load_refuses_what_it_cannot_read_in_one_line(
    client: TestClient, data: dict[str, object], message: str
) -> None:
    assert message in _error(_post(client, "/api/load", data), 422)


def test_text_from_outside_comes_back_inert(client: TestClient) -> None:
    # A puzzle's name, a quoted id and a lone surrogate: control characters (an escape that
    # clears the screen, a right-to-left override) are written as escapes; every refusal is
    # ASCII JSON in one line, whatever it quotes.
    hostile = "a\x1b[2Jb\u202ec"
    puzzle = {"name": hostile, "board": [[0, 0, 1, -1], [0, 0, 1, 1]]}
    named = _post(client, "/api/load", {"text": json.dumps(puzzle)}).json()["name"]
    assert named == "a\\x1b[2Jb\\u202ec"
    quoted = _error(_post(client, "/api/watch", {"player": "kb", "game": hostile}), 404)
    assert "\\x1b[2J" in quoted and "\x1b" not in quoted and "\u202e" not in quoted
    for game in ("\udc1b", "\udcc2\udc9b"):
        response = client.post(
            "/api/watch",
            content=json.dumps({"player": "kb", "game": game}).encode(),
            headers={"content-type": "application/json"},
        )
        assert response.content.isascii()
        _error(response, 404)


def test_load_never_reads_a_file_of_the_server(client: TestClient, tmp_path: Any) -> None:
    secret = tmp_path / "position.json"
    secret.write_text(json.dumps(EXPERT_STALL))
    assert _post(client, "/api/load", {"text": str(secret)}).status_code == 422


# -- live games -------------------------------------------------------------------------------


def _new(client: TestClient, **settings: object) -> dict[str, Any]:
    settings = {"rows": 9, "cols": 9, "mines": 10, **settings}
    response = _post(client, "/api/games", settings)
    assert response.status_code == 200, response.text
    return schema.GameOut.model_validate(response.json()).model_dump()


def test_a_new_game_shows_nothing_of_its_board(client: TestClient) -> None:
    game = _new(client, seed=7)
    assert game["board"] == [[None] * 9 for _ in range(9)]
    assert game["status"] == "playing" and game["mines_left"] == 10 and game["mines"] is None
    assert game["settings"]["seed"] is None  # it draws the board: shown once the game is over
    shown = client.get(f"/api/games/{game['id']}").json()
    assert shown["mines"] is None and shown["board"] == game["board"]


def test_the_same_seed_and_first_reveal_give_the_same_game_as_the_engine(
    client: TestClient,
) -> None:
    from mineshafted.game import FirstMove, Game, Rules

    for first in ("safe", "opening"):
        game = _new(client, seed=42, first=first)
        move = schema.MoveOut.model_validate(
            _post(client, f"/api/games/{game['id']}/reveal", {"cell": [4, 4]}).json()
        )
        engine = Game.draw(9, 9, 10, rules=Rules(FirstMove(first)), seed=42)
        event = engine.reveal(40)
        assert move.revealed == [[c // 9, c % 9, v] for c, v in event.revealed]
        if first == "opening":
            assert move.revealed[0][2] == 0


def test_a_game_is_played_to_a_loss_and_then_shows_every_mine(client: TestClient) -> None:
    from mineshafted.game import Game, Rules

    game = _new(client, seed=3)
    url = f"/api/games/{game['id']}"
    _post(client, f"{url}/reveal", {"cell": [0, 0]})
    engine = Game.draw(9, 9, 10, rules=Rules.CLASSIC, seed=3)
    engine.reveal(0)
    assert engine.board is not None
    flag = _post(client, f"{url}/flag", {"cell": [8, 8]}).json()
    assert flag["flagged"] == [[8, 8]] and flag["mines_left"] == 9
    unflag = _post(client, f"{url}/flag", {"cell": [8, 8]}).json()
    assert unflag["flagged"] == [] and unflag["mines_left"] == 10
    mine = min(engine.board.mines)
    lost = schema.MoveOut.model_validate(
        _post(client, f"{url}/reveal", {"cell": list(divmod(mine, 9))}).json()
    )
    assert lost.status == "lost"
    assert lost.mines == [list(divmod(c, 9)) for c in sorted(engine.board.mines)]
    assert lost.hit == [list(divmod(mine, 9))]
    assert lost.seed == 3 and client.get(url).json()["settings"]["seed"] == 3
    assert "the game is over (lost)" in _error(
        _post(client, f"{url}/reveal", {"cell": [0, 1]}), 409
    )
    assert "the game is over" in _error(client.post(f"{url}/hint"), 409)


def test_a_chord_reveals_around_a_satisfied_clue_and_nothing_otherwise(
    client: TestClient,
) -> None:
    from mineshafted.game import Game, Rules

    engine = Game.draw(9, 9, 10, rules=Rules.CLASSIC, seed=5)
    engine.reveal(0)
    assert engine.board is not None
    game = _new(client, seed=5)
    url = f"/api/games/{game['id']}"
    shown = {
        (r, c, v) for r, c, v in _post(client, f"{url}/reveal", {"cell": [0, 0]}).json()["revealed"]
    }
    values, mines = engine.board.values, engine.board.mines
    # A revealed clue with a hidden safe neighbour and its mines all hidden.
    table = engine.geometry.neighbour_table()
    revealed = {r * 9 + c for r, c, _ in shown}
    clue = next(
        c
        for c in sorted(revealed)
        if values[c] > 0 and any(n not in revealed and n not in mines for n in table[c])
    )
    where = list(divmod(clue, 9))
    unsatisfied = _post(client, f"{url}/chord", {"cell": where}).json()
    assert unsatisfied["revealed"] == [] and "but has 0 flag(s)" in unsatisfied["note"]
    for n in table[clue]:
        if n in mines:
            _post(client, f"{url}/flag", {"cell": list(divmod(n, 9))})
    chord = _post(client, f"{url}/chord", {"cell": where}).json()
    opened = {r * 9 + c for r, c, _ in chord["revealed"]}
    assert {n for n in table[clue] if n not in revealed and n not in mines} <= opened
    assert all(values[r * 9 + c] == v for r, c, v in chord["revealed"])
    hidden = next(n for n in range(81) if n not in revealed and n not in opened and n not in mines)
    assert "is not a revealed clue" in _error(
        _post(client, f"{url}/chord", {"cell": list(divmod(hidden, 9))}), 422
    )


@pytest.mark.slow
def test_a_hint_is_a_safe_cell_with_its_proof_or_the_best_guess(client: TestClient) -> None:
    game = _new(client, seed=11, board="no-guess")
    url = f"/api/games/{game['id']}"
    first = schema.HintOut.model_validate(client.post(f"{url}/hint").json())
    assert first.safe and first.cell == [0, 0] and "first move is always safe" in first.text
    _post(client, f"{url}/reveal", {"cell": first.cell})
    hint = schema.HintOut.model_validate(client.post(f"{url}/hint").json())
    assert hint.safe and hint.explanation is not None and hint.probability == 0.0
    assert hint.explanation.cell == hint.cell
    random_game = _new(client, seed=2, rows=16, cols=30, mines=99)
    url = f"/api/games/{random_game['id']}"
    _post(client, f"{url}/reveal", {"cell": [0, 0]})
    guesses = 0
    for _ in range(600):  # follow the hints; a guess comes with its probability
        hint = schema.HintOut.model_validate(client.post(f"{url}/hint").json())
        if not hint.safe:
            guesses += 1
            assert 0 < hint.probability < 1 and hint.explanation is None
            assert f"{hint.probability:.1%}" in hint.text
        move = _post(client, f"{url}/reveal", {"cell": hint.cell}).json()
        if move["status"] != "playing":
            break
    assert guesses > 0


def test_a_no_guess_game_is_won_by_following_the_hints_alone(client: TestClient) -> None:
    game = _new(client, board="no-guess", seed=5, rows=9, cols=9, mines=10)
    url = f"/api/games/{game['id']}"
    for _ in range(81):
        hint = client.post(f"{url}/hint").json()
        assert hint["safe"], hint
        move = _post(client, f"{url}/reveal", {"cell": hint["cell"]}).json()
        if move["status"] != "playing":
            break
    assert move["status"] == "won"
    assert len(move["mines"]) == 10


def test_a_no_guess_board_can_be_asked_for_a_rating(client: TestClient) -> None:
    from mineshafted.generate import generate
    from mineshafted.solver import Technique

    assert client.get("/api/config").json()["techniques"] == [
        "count",
        "subset",
        "ac3",
        "complete",
        "total",
    ]
    for technique in ("subset", "ac3"):
        game = _new(client, board="no-guess", seed=3, technique=technique)
        assert game["rating"] is None and game["settings"]["technique"] == technique
        move = _post(client, f"/api/games/{game['id']}/reveal", {"cell": [4, 4]}).json()
        assert move["rating"] == technique
        made = generate(9, 9, 10, seed=3, start=40, technique=Technique(technique), needs=True)
        assert all(made.board.values[r * 9 + c] == v for r, c, v in move["revealed"])
    plain = _new(client, board="no-guess", seed=3)
    rated = _post(client, f"/api/games/{plain['id']}/reveal", {"cell": [4, 4]}).json()["rating"]
    assert rated in ("count", "subset", "ac3", "complete")


def test_a_no_guess_board_is_the_generators_for_the_seed_and_first_reveal(
    client: TestClient,
) -> None:
    from mineshafted.generate import generate

    game = _new(client, board="no-guess", seed=9)
    url = f"/api/games/{game['id']}"
    move = _post(client, f"{url}/reveal", {"cell": [3, 5]}).json()
    made = generate(9, 9, 10, seed=9, start=3 * 9 + 5)
    assert all(made.board.values[r * 9 + c] == v for r, c, v in move["revealed"])
    assert move["revealed"][0][2] == 0


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"rows": 0}, "rows: 0 is not in 1..1,000"),
        ({"rows": 1001}, "rows: 1001 is not in 1..1,000"),
        ({"rows": "9"}, 'rows: "9" is not an integer'),
        ({"cols": 9.0}, "cols: 9.0 is not an integer"),
        ({"mines": 81}, "mines: 81 is not in 0..80"),
        ({"mines": 73, "first": "opening"}, "mines: 73 is not in 0..72"),
        ({"first": "none"}, 'first: "none" is not one of safe, opening'),
        ({"board": "hard"}, 'board: "hard" is not one of random, no-guess'),
        ({"seed": -1}, "seed: -1 is not in 0..9,007,199,254,740,991"),
        ({"seed": 2**63}, "seed: 9223372036854775808 is not in"),
        ({"technique": "count"}, "technique: only a no-guess board"),
        ({"board": "no-guess", "technique": "magic"}, "technique: 'magic' is not one of count"),
        ({"board": "no-guess", "technique": "guess"}, "technique: 'guess' is not one of"),
        ({"board": "no-guess", "technique": 3}, "technique: a number is not a string"),
        ({"colour": "red"}, "colour: unknown field"),
    ],
)
def test_a_new_game_refuses_each_bad_setting_in_one_line(
    client: TestClient, settings: dict[str, object], message: str
) -> None:
    body = {"rows": 9, "cols": 9, "mines": 10, **settings}
    assert message in _error(_post(client, "/api/games", body), 422)


def test_a_board_of_more_than_40000_cells_is_refused(client: TestClient) -> None:
    body = {"rows": 200, "cols": 201, "mines": 10}
    assert _error(_post(client, "/api/games", body), 422) == (
        "rows, cols: 200x201 is more than 40,000 cells"
    )
    body = {"rows": 200, "cols": 200, "mines": 10}
    assert _post(client, "/api/games", body).status_code == 200


@pytest.mark.parametrize("action", ["reveal", "flag", "chord"])
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "cell: missing"),
        ({"cell": [9, 0]}, "cell: [9, 0] is off the 9x9 board"),
        ({"cell": [-1, 0]}, "cell: [-1, 0] is off the 9x9 board"),
        ({"cell": "a1"}, 'cell: "a1" is not a cell'),
        ({"cell": [0, 0], "x": 1}, "x: unknown field"),
    ],
)
def test_an_action_refuses_a_bad_cell_in_one_line(
    client: TestClient, action: str, data: dict[str, object], message: str
) -> None:
    game = _new(client, seed=1)
    response = _post(client, f"/api/games/{game['id']}/{action}", data)
    assert message in _error(response, 422)


def test_an_unknown_game_is_a_404(client: TestClient) -> None:
    for response in (
        client.get("/api/games/nope"),
        _post(client, "/api/games/nope/reveal", {"cell": [0, 0]}),
        client.post("/api/games/nope/hint"),
        client.delete("/api/games/nope"),
    ):
        assert "no live game 'nope'" in _error(response, 404)


def test_a_flag_on_a_revealed_cell_and_a_reveal_of_a_flag_are_refused(
    client: TestClient,
) -> None:
    game = _new(client, seed=1, first="opening")
    url = f"/api/games/{game['id']}"
    _post(client, f"{url}/reveal", {"cell": [4, 4]})
    assert "is revealed" in _error(_post(client, f"{url}/flag", {"cell": [4, 4]}), 422)
    hidden = next(
        [r, c]
        for r, row in enumerate(client.get(url).json()["board"])
        for c, value in enumerate(row)
        if value is None
    )
    _post(client, f"{url}/flag", {"cell": hidden})
    assert "is flagged" in _error(_post(client, f"{url}/reveal", {"cell": hidden}), 422)


def test_a_deleted_game_is_gone(client: TestClient) -> None:
    game = _new(client)
    assert client.delete(f"/api/games/{game['id']}").status_code == 204
    _error(client.get(f"/api/games/{game['id']}"), 404)


def test_a_flood_of_new_games_ends_no_game_in_play() -> None:
    # Not entered: random boards and their reveals need no worker, so none is started.
    capped = TestClient(create_app(Limits(workers=1, games=3)))
    ids = [_new(capped, seed=3)["id"] for _ in range(3)]
    for _ in range(20):
        message = _error(_post(capped, "/api/games", {"rows": 9, "cols": 9, "mines": 10}), 503)
    assert message == (
        "the server keeps at most 3 live game(s), each used in the last 600 s: end one, "
        "or try again later"
    )
    for key in ids:
        assert capped.get(f"/api/games/{key}").status_code == 200
    # A game over makes room: the new game takes its place, the games in play stay.
    from mineshafted.web.games import LiveGame, Settings

    engine = LiveGame(Settings(9, 9, 10, seed=3))
    engine.reveal((0, 0))
    assert engine.game is not None and engine.game.board is not None
    mine = list(divmod(min(engine.game.board.mines), 9))
    _post(capped, f"/api/games/{ids[1]}/reveal", {"cell": [0, 0]})
    _post(capped, f"/api/games/{ids[1]}/reveal", {"cell": mine})
    assert capped.get(f"/api/games/{ids[1]}").json()["status"] == "lost"
    _new(capped)
    _error(capped.get(f"/api/games/{ids[1]}"), 404)
    assert capped.get(f"/api/games/{ids[0]}").status_code == 200


def test_a_full_store_drops_a_game_over_first_then_the_idle_never_one_in_use() -> None:
    from mineshafted.web.games import Store

    now = [0.0]
    over: set[str] = set()
    store: Store[str] = Store(
        2, idle=3600.0, keep=600.0, done=lambda item: item in over, clock=lambda: now[0]
    )
    a = store.add("a")
    now[0] = 100.0
    b = store.add("b")
    now[0] = 200.0
    with pytest.raises(Exception, match="each used in the last 600 s"):
        store.add("c")
    over.add("b")
    c = store.add("c")  # b is over: dropped, though used after a
    with pytest.raises(Exception, match="no live game"):
        store.get(b)
    now[0] = 650.0  # a idle 650 s, c 450 s
    d = store.add("d")
    with pytest.raises(Exception, match="no live game"):
        store.get(a)
    assert store.get(c) == "c" and store.get(d) == "d"


def test_a_live_game_expires_after_its_idle_time() -> None:
    from mineshafted.web.games import LiveGame, Settings, Store

    now = [0.0]
    store: Store[LiveGame] = Store(10, idle=60.0, clock=lambda: now[0])
    key = store.add(LiveGame(Settings(9, 9, 10, seed=1)))
    now[0] = 59.0
    store.get(key)
    now[0] = 118.0
    store.get(key)  # used at 59: kept
    now[0] = 179.0
    with pytest.raises(Exception, match="no live game"):
        store.get(key)


# -- watch ------------------------------------------------------------------------------------


def test_watching_the_best_policy_steps_through_a_game_with_its_reasons(
    client: TestClient,
) -> None:
    made = _post(
        client,
        "/api/watch",
        {"player": "policy:best", "rows": 9, "cols": 9, "mines": 10, "seed": 2},
    )
    watched = schema.WatchOut.model_validate(made.json())
    assert watched.step == 0 and watched.total > 0
    url = f"/api/watch/{watched.id}/step"
    first = schema.StepsOut.model_validate(client.post(url).json())
    assert first.step == 1 and first.steps[0].reason == "start" and first.steps[0].cell == [0, 0]
    assert "Why: start, the start cell" in first.steps[0].text
    rest = schema.StepsOut.model_validate(_post(client, url, {"count": 1000}).json())
    assert rest.done and rest.step == watched.total and rest.status == "won"
    reasons = {step.reason for step in [*first.steps, *rest.steps]}
    assert "count" in reasons and "best guess" in reasons
    guess = next(step for step in rest.steps if step.guess)
    assert guess.probability is not None and guess.odds
    assert "A guess, mine probability" in guess.text
    assert rest.steps[-1].mines is not None
    after = schema.StepsOut.model_validate(client.post(url).json())
    assert after.steps == [] and after.done


@pytest.mark.parametrize("player", ["kb", "improved-v2", "csp", "best"])
def test_watching_an_agent_plays_the_board_to_its_end(client: TestClient, player: str) -> None:
    made = _post(
        client, "/api/watch", {"player": player, "rows": 9, "cols": 9, "mines": 10, "seed": 4}
    )
    key = made.json()["id"]
    steps = _post(client, f"/api/watch/{key}/step", {"count": 1000}).json()
    assert steps["done"] and steps["status"] in ("won", "lost")
    assert steps["steps"][0]["reason"] == "start"


def test_watching_s4_rules_plays_by_the_rules_named_in_each_step(client: TestClient) -> None:
    from pathlib import Path

    rules = (Path(__file__).resolve().parents[2] / "rules" / "champion.s4").read_text()
    made = _post(
        client,
        "/api/watch",
        {"player": "rules", "rules": rules, "rows": 9, "cols": 9, "mines": 10, "seed": 4},
    )
    assert made.status_code == 200, made.text
    key = made.json()["id"]
    steps = _post(client, f"/api/watch/{key}/step", {"count": 1000}).json()["steps"]
    assert any(step["reason"] == "free guess" for step in steps)
    named = [step for step in steps if step["reason"] not in (None, "free guess")]
    assert named and all("Why: the rule " in step["text"] for step in named)


def test_watching_a_finished_game_replays_its_board(client: TestClient) -> None:
    game = _new(client, seed=3)
    url = f"/api/games/{game['id']}"
    _post(client, f"{url}/reveal", {"cell": [0, 0]})
    assert "finish the game first" in _error(
        _post(client, "/api/watch", {"player": "policy:best", "game": game["id"]}), 409
    )
    from mineshafted.game import Game, Rules

    engine = Game.draw(9, 9, 10, rules=Rules.CLASSIC, seed=3)
    engine.reveal(0)
    assert engine.board is not None
    mine = min(engine.board.mines)
    end = _post(client, f"{url}/reveal", {"cell": list(divmod(mine, 9))}).json()
    made = _post(client, "/api/watch", {"player": "policy:best", "game": game["id"]}).json()
    steps = _post(client, f"/api/watch/{made['id']}/step", {"count": 1000}).json()["steps"]
    assert steps[0]["cell"] == [0, 0]
    assert steps[-1]["mines"] == end["mines"]


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        (
            {"player": "oracle", "rows": 9, "cols": 9, "mines": 10},
            422,
            "player: 'oracle' is not one of",
        ),
        ({"player": "rules", "rows": 9, "cols": 9, "mines": 10}, 422, "rules: missing"),
        (
            {"player": "rules", "rules": "{Rule1 ?? =>", "rows": 9, "cols": 9, "mines": 10},
            422,
            "rules:1:",
        ),
        ({"player": "kb", "rows": 9, "cols": 9}, 422, "mines: missing"),
        (
            {"player": "kb", "rows": 9, "cols": 9, "mines": 10, "start": [9, 9]},
            422,
            "start: [9, 9] is off",
        ),
        ({"player": "kb", "game": "nope"}, 404, "no live game 'nope'"),
        (
            {"player": "rules", "rules": "x " * 200_001, "rows": 9, "cols": 9, "mines": 10},
            422,
            "more than 200,000 tokens",
        ),
        ({"player": 5, "rows": 9, "cols": 9, "mines": 10}, 422, "player: a number is not"),
        ({"player": "kb", "game": ["x"]}, 422, "game: a JSON array is not a string"),
        ({"rows": 9}, 422, "player: missing"),
    ],
)
def test_watch_refuses_each_bad_request_in_one_line(
    client: TestClient, data: dict[str, object], status: int, message: str
) -> None:
    assert message in _error(_post(client, "/api/watch", data), status)


def test_a_step_refuses_a_bad_count_and_an_unknown_watch(client: TestClient) -> None:
    made = _post(
        client, "/api/watch", {"player": "kb", "rows": 5, "cols": 5, "mines": 3, "seed": 1}
    )
    url = f"/api/watch/{made.json()['id']}/step"
    assert "count: 0 is not in 1..1,000" in _error(_post(client, url, {"count": 0}), 422)
    assert "count: 1001 is not in" in _error(_post(client, url, {"count": 1001}), 422)
    assert "no live watched game" in _error(client.post("/api/watch/nope/step"), 404)


@pytest.mark.slow
def test_watch_plays_the_largest_board_it_admits_at_expert_density() -> None:
    # Watch's only limit is its 40,000 cells: under the default limits, a 200x200 board with
    # expert density (8,250 mines) is played to its end (it was refused past the 5 s budget).
    with TestClient(create_app(Limits(workers=1))) as default:
        made = _post(
            default,
            "/api/watch",
            {"player": "policy:best", "rows": 200, "cols": 200, "mines": 8250, "seed": 1},
        )
        assert made.status_code == 200, made.text
        key, total = made.json()["id"], made.json()["total"]
        steps: list[dict[str, Any]] = []
        while len(steps) < total:
            steps += _post(default, f"/api/watch/{key}/step", {"count": 1000}).json()["steps"]
        assert steps[-1]["status"] in ("won", "lost") and len(steps[-1]["mines"]) == 8250


# -- surveys (what the policy knows), reviews, take-overs -----------------------------------


def test_a_survey_answers_the_librarys_figures(client: TestClient) -> None:
    from mineshafted.probability import view_odds
    from mineshafted.web.survey import survey

    grid = [[1, -1, None, None, None]]
    answer = schema.SurveyOut.model_validate(
        _post(client, "/api/survey", {"board": grid, "mines": 2}).json()
    )
    assert answer.model_dump() == survey(grid, 2, view_odds(grid, 2))
    assert answer.endgame is not None and answer.endgame.chance == 2 / 3
    assert "not a clue" in _error(_post(client, "/api/survey", {"board": [[9]], "mines": 0}), 422)


def test_the_surveys_old_path_still_answers_and_is_marked_deprecated(client: TestClient) -> None:
    body = {"board": [[1, -1, None, None, None]], "mines": 2}
    old = _post(client, "/api/knowledge", body)
    assert old.status_code == 200 and old.json() == _post(client, "/api/survey", body).json()
    document = client.get("/openapi.json").json()
    assert document["paths"]["/api/knowledge"]["post"]["deprecated"] is True
    assert "deprecated" not in document["paths"]["/api/survey"]["post"]


def test_a_review_waits_for_the_end_then_judges_every_move(client: TestClient) -> None:
    from mineshafted.web.games import LiveGame, Settings

    game = _new(client, seed=3)
    url = f"/api/games/{game['id']}"
    _post(client, f"{url}/reveal", {"cell": [0, 0]})
    assert "finish the game first" in _error(client.post(f"{url}/review"), 409)
    engine = LiveGame(Settings(9, 9, 10, seed=3))
    engine.reveal((0, 0))
    assert engine.game is not None and engine.game.board is not None
    mine = list(divmod(min(engine.game.board.mines), 9))
    lost = _post(client, f"{url}/reveal", {"cell": mine}).json()
    assert lost["actions"] == 2 and lost["bbbv"] > 0 and lost["efficiency"] is None
    judged = schema.ReviewOut.model_validate(client.post(f"{url}/review").json())
    assert judged.moves[0].verdict == "first" and len(judged.moves) == 2
    assert judged.moves[1].cell == mine and judged.guesses == [judged.moves[1].probability]


def test_take_over_plays_on_from_a_step_the_page_was_sent(client: TestClient) -> None:
    made = _post(
        client,
        "/api/watch",
        {"player": "policy:best", "rows": 9, "cols": 9, "mines": 10, "seed": 2},
    ).json()
    key = made["id"]
    assert "past the 0 step(s) sent" in _error(
        _post(client, f"/api/watch/{key}/takeover", {"step": 1}), 422
    )
    steps = _post(client, f"/api/watch/{key}/step", {"count": 3}).json()["steps"]
    game = schema.GameOut.model_validate(
        _post(client, f"/api/watch/{key}/takeover", {"step": 3}).json()
    )
    assert game.origin == "watch" and game.status == "playing"
    revealed = {(r, c): v for step in steps for r, c, v in step["revealed"]}
    shown = {
        (r, c): v for r, row in enumerate(game.board) for c, v in enumerate(row) if v is not None
    }
    assert shown == revealed
    assert game.flagged == [s["cell"] for s in steps if s["kind"] == "flag"]
    hidden = next(
        [r, c] for r, row in enumerate(game.board) for c, v in enumerate(row) if v is None
    )
    assert client.post(f"/api/games/{game.id}/flag", json={"cell": hidden}).status_code == 200
    assert "step: -1 is not in 0..1,000,000" in _error(
        _post(client, f"/api/watch/{key}/takeover", {"step": -1}), 422
    )
