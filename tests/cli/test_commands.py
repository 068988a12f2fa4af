"""Sub-commands as a user runs them: `bang simulate`, `bang replay`, and bad flags."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from client.cli import main
from shared.record import GameRecord, Move, dump_record
from shared.setup import Scenario, SeatRig, Setup

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_simulate_json_reports_every_field(capsys):
    assert main(["simulate", "--games", "30", "--players", "3-7", "--seed", "9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 30
    assert data["completed"] == 30
    assert sum(data["wins"].values()) == 30
    assert set(data["wins"]) <= {"sheriff", "outlaws", "renegade",
                                 "3p_deputy", "3p_outlaw", "3p_renegade"}
    assert data["actions"] > 30
    assert data["seconds"] > 0
    assert data["longest_game_turns"] >= 1


def test_simulate_is_deterministic_for_a_seed(capsys):
    main(["simulate", "--games", "20", "--players", "4-6", "--seed", "4", "--json"])
    first = json.loads(capsys.readouterr().out)
    main(["simulate", "--games", "20", "--players", "4-6", "--seed", "4", "--json"])
    second = json.loads(capsys.readouterr().out)
    assert (first["wins"], first["actions"]) == (second["wins"], second["actions"])


def test_simulate_human_output_names_speed(capsys):
    assert main(["simulate", "--games", "5", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "actions/s" in out and "longest game" in out


@pytest.mark.parametrize("players", ["2", "8", "5-3", "many"])
def test_simulate_refuses_bad_player_counts(players, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--players", players])
    assert exit_info.value.code == 2
    assert "player count" in capsys.readouterr().err


def _duel_record() -> GameRecord:
    setup = Setup(players=4, seed=1, names=["Ann", "Bob", "Cid", "Dan"],
                  characters=["willy_the_kid", "bart_cassidy", "paul_regret", "pixie_pete"],
                  roles=["sheriff", "outlaw", "outlaw", "renegade"])
    scenario = Scenario(seats=[SeatRig(hand=["Duel J♠"]), SeatRig(hand=[])], start="play")
    return GameRecord(setup=setup, scenario=scenario, actions=[
        Move(0, "play", card="Duel J♠", target=1),
        Move(1, "take_hit"),
    ])


def test_replay_prints_a_readable_log(tmp_path, capsys):
    path = tmp_path / "duel.json"
    path.write_bytes(dump_record(_duel_record()))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ann plays Duel J♠ on Bob" in out
    assert "Bob loses 1 life (by Ann)" in out


def test_replay_prints_names_from_the_file_without_terminal_codes(tmp_path, capsys):
    record = _duel_record()
    record.setup.names = ["Ann\x1b]0;pwned\x07", "Bob\u202e", "Cid", "Dan"]
    path = tmp_path / "duel.json"
    path.write_bytes(dump_record(record))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ann\ufffd]0;pwned\ufffd plays Duel J♠ on Bob\ufffd" in out
    assert "\x1b" not in out and "\u202e" not in out


def test_replay_json_gives_the_final_state(tmp_path, capsys):
    path = tmp_path / "duel.json"
    path.write_bytes(dump_record(_duel_record()))
    assert main(["replay", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["players"][1]["life"] == state["players"][1]["max_life"] - 1


def test_replay_reads_msgpack_too(tmp_path, capsys):
    import msgspec

    path = tmp_path / "duel.msgpack"
    path.write_bytes(msgspec.msgpack.encode(_duel_record()))
    assert main(["replay", str(path)]) == 0
    assert "Bob loses 1 life" in capsys.readouterr().out


def test_replay_explains_a_broken_file(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"setup": {"players": 4}, "actions": [{"seat": 0, "kind": "fly"}]}')
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "action 0 (fly by seat" in err


def test_replay_explains_a_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("fingerprint", ["nonsense", "SHA256:7769", "MD5:" + "ab12:" * 7 + "ab12"])
def test_join_refuses_a_malformed_fingerprint(fingerprint, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["join", "--fingerprint", fingerprint])
    assert exit_info.value.code == 2
    assert "not a host fingerprint" in capsys.readouterr().err


def test_bad_host_flags_get_one_line(capsys):
    assert main(["host", "--keep-days", "-1"]) == 2
    assert "--keep-days" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "join"])
@pytest.mark.parametrize(("name", "why"), [("\u0430lice", "one alphabet"),
                                           ("zero\u200bwidth", "U+200B"), ("a" * 25, "1-24")])
def test_a_name_the_table_would_refuse_is_refused_at_once(command, name, why, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--name", name])
    assert exit_info.value.code == 2
    assert why in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "named"), [
    (["join", "--broker", "http://x:1883"], "mqtt://host"),
    (["host", "--broker", "http://x"], "mqtt://host"),
    (["ssh-serve", "--broker", "ftp://y"], "mqtt://host"),
    (["play", "--timeout", "-5"], "0 (no limit) to 3600"),
    (["play", "--timeout", "x"], "whole number"),
    (["host", "--port", "70000"], "1-65535"),
    (["play", "--lan", "--port", "0"], "1-65535"),
    (["ssh-serve", "--mqtt-port", "x"], "not a port number"),
    (["host", "--bot-delay", "-2"], "0 to 60 seconds"),
    (["play", "--bot-delay", "nan"], "0 to 60 seconds"),
    (["play", "--expansions", "fistful"], "unknown expansion 'fistful'; known: high_noon"),
    (["play", "--offline", "--expansions", "high_noon,high_noon"], "an expansion is named twice"),
    (["play", "--rulings", "bonsu"], "unknown ruling 'bonsu'"),
    (["simulate", "--rulings", "event_limit=many"], "event_limit"),
])
def test_a_bad_broker_or_timeout_is_refused_and_nothing_saved(argv, named, capsys, tmp_path,
                                                              monkeypatch):
    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path))
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert named in capsys.readouterr().err
    assert not (tmp_path / "settings.json").exists()


def test_a_saved_broker_that_cannot_work_is_one_line(capsys, tmp_path, monkeypatch):
    """Older versions saved whatever --broker was given."""
    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text('{"broker": "http://x:1883"}')
    assert main(["join"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the saved broker is unusable" in err and "--broker" in err


@pytest.mark.parametrize("command", ["join", "watch"])
def test_an_unreachable_broker_is_one_line_and_not_saved(command, capsys, tmp_path,
                                                         monkeypatch):
    """Nothing listens there: one line naming what to do, exit 2, no screen, nothing saved."""
    from client.embedded import free_port

    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path))
    url = f"mqtt://127.0.0.1:{free_port()}"
    assert main([command, "--broker", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the broker at 127.0.0.1" in err
    assert "bang host" in err and "--broker" in err
    assert not (tmp_path / "settings.json").exists()


def test_play_deals_the_expansions_given(monkeypatch, tmp_path):
    """`--expansions` goes into the offline game's Setup and into the hosted room's options."""
    from client.cli import build_parser
    from client.commands import play

    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path))
    args = build_parser().parse_args(["play", "--offline", "--expansions", " high_noon ,"])
    assert args.expansions == ("high_noon",)
    assert play.offline_session(args, "Rosa").table.setup.expansions == ["high_noon"]
    monkeypatch.setattr(play, "embedded_server", lambda args: None)
    monkeypatch.setattr("client.embedded.HostedSession.__init__",
                        lambda self, server, profile, name, options, room: setattr(
                            self, "options", options))
    hosted = play.hosted_session(args, "Rosa", play.I18n("en"))
    assert hosted.options.expansions == ["high_noon"]
    plain = build_parser().parse_args(["play"])
    assert play.offline_session(plain, "Rosa").table.setup.expansions == []


@pytest.mark.parametrize(("argv", "why"), [
    (["play", "--offline", "--rulings", "bonus"], "need high_noon in the expansions"),
    (["simulate", "--players", "3-5", "--expansions", "high_noon", "--rulings",
      "no_three_players"], "3 players"),
])
def test_rulings_that_do_not_fit_the_game_are_one_line(argv, why, capsys, tmp_path,
                                                        monkeypatch):
    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err


def test_play_and_simulate_take_the_rulings(monkeypatch, tmp_path):
    from client.cli import build_parser
    from client.commands import play
    from shared.setup import HighNoonOptions

    monkeypatch.setenv("BANG_CONFIG_DIR", str(tmp_path))
    args = build_parser().parse_args(["play", "--offline", "--expansions", "high_noon",
                                      "--rulings", "bonus, event_limit=4,next_hidden"])
    wanted = HighNoonOptions(bonus=True, event_limit=4, next_hidden=True)
    assert play.offline_session(args, "Rosa").table.setup.high_noon == wanted
    assert main(["simulate", "--games", "3", "--expansions", "high_noon", "--rulings",
                 "bonus,event_limit=2", "--json"]) == 0


def test_a_lan_room_carries_the_rulings_and_the_forms_bonus_choice():
    from client.screens.create_room import RoomForm
    from shared.setup import HighNoonOptions

    form = RoomForm(name="Saloon", players=5, pool="all", timeout=0, bots=False,
                    expansions=("high_noon",), high_noon_bonus=True,
                    rulings=HighNoonOptions(thirst_draws_one=True))
    assert form.high_noon() == HighNoonOptions(bonus=True, thirst_draws_one=True)
    plain = RoomForm(name="Saloon", players=5, pool="all", timeout=0, bots=False,
                     expansions=("high_noon",))
    assert plain.high_noon() is None


def test_output_cut_short_by_its_reader_is_no_error() -> None:
    """`bang replay --json game | head`: the reader leaves early; no traceback, exit 1."""
    command = [sys.executable, "-m", "client.cli", "replay", "--json",
               str(EXAMPLES / "high_noon.json")]
    reader, writer = os.pipe()
    os.close(reader)  # gone before anything is written: every write fails
    try:
        done = subprocess.run(command, stdout=writer, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(writer)
    assert done.stderr == b""
    assert done.returncode == 1
