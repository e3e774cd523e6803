"""``coloretto web``'s command line: its options, the missing extra, a busy port, and the
process each visitor runs."""

from __future__ import annotations

import os
import shlex
import socket
import sys
import tomllib
from importlib.metadata import Distribution, PathDistribution
from pathlib import Path

import pytest

from coloretto.cli import web_command
from coloretto.cli.main import build_parser, main
from coloretto.cli.visitor import main as visitor
from tests.conftest import run_coloretto
from tests.online.conftest import certificate
from tests.web import page


def test_without_the_web_extra_it_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "textual_serve", None)  # hidden, as if not installed
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    monkeypatch.delitem(sys.modules, "coloretto.web.server", raising=False)
    monkeypatch.setattr(web_command, "install_command", lambda: "python -m pip install X")
    assert main(["web"]) == 2
    error = capsys.readouterr().err
    assert error.startswith(
        "coloretto web: error: serving the game needs the web extra (textual-serve is not "
        "installed)"
    )
    assert error.endswith("; install it with: python -m pip install X\n")
    assert error.count("\n") == 1
    assert "coloretto[web]" not in error  # the project is not on PyPI


def installed(tmp_path: Path, direct_url: str | None, installer: str = "pip") -> Distribution:
    """An installed distribution of the game (its metadata in a dist-info folder)."""
    info = tmp_path / "coloretto-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: coloretto\nVersion: 1.0\n"
        "Requires-Dist: rich>=13.7\n"
        "Requires-Dist: textual-serve<2,>=1.1; extra == 'web'\n"
    )
    (info / "INSTALLER").write_text(f"{installer}\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(direct_url)
    return PathDistribution(info)


def environment(tmp_path: Path, mark: str) -> Path:
    """A tool's environment of the game, marked as pipx and uv mark theirs."""
    prefix = tmp_path / "venvs" / "coloretto"
    prefix.mkdir(parents=True)
    (prefix / mark).write_text("")
    return prefix


def test_the_install_command_fits_how_the_game_was_installed(tmp_path: Path) -> None:
    checkout = tmp_path / "my checkout"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("[project]\n")
    url = checkout.as_uri()
    python = shlex.quote(sys.executable)
    editable = installed(tmp_path / "a", f'{{"url": "{url}", "dir_info": {{"editable": true}}}}')
    assert web_command.install_command(editable) == (
        f"{python} -m pip install -e '{checkout}[web]'"
    )
    plain = installed(tmp_path / "b", f'{{"url": "{url}", "dir_info": {{}}}}')
    assert web_command.install_command(plain) == f"{python} -m pip install '{checkout}[web]'"
    wheel = installed(tmp_path / "c", None)  # from a wheel: the extra's own requirements
    assert web_command.install_command(wheel) == f"{python} -m pip install 'textual-serve<2,>=1.1'"
    gone = installed(tmp_path / "d", '{"url": "file:///no/such/checkout", "dir_info": {}}')
    assert "textual-serve" in web_command.install_command(gone)
    for hostile in ("[1, 2", '{"url": 3, "dir_info": {}}', '"x"', "[" * 100_000):
        broken = installed(tmp_path / str(abs(hash(hostile))), hostile)
        assert web_command.install_command(broken).endswith("'textual-serve<2,>=1.1'")


def test_the_install_command_fits_pipx_uv_tools_and_uvs_environments(tmp_path: Path) -> None:
    checkout = tmp_path / "game"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("[project]\n")
    url = checkout.as_uri()
    python = shlex.quote(sys.executable)
    plain = installed(tmp_path / "a", f'{{"url": "{url}", "dir_info": {{}}}}')
    editable = installed(tmp_path / "b", f'{{"url": "{url}", "dir_info": {{"editable": true}}}}')
    wheel = installed(tmp_path / "c", None)
    pipx = environment(tmp_path / "pipx", web_command.PIPX_MARK)
    for dist in (plain, editable, wheel):  # pipx's own way, whatever the game came from
        command = web_command.install_command(dist, pipx)
        assert command == "pipx inject coloretto 'textual-serve<2,>=1.1'"
    tool = environment(tmp_path / "uv", web_command.UV_TOOL_MARK)
    assert web_command.install_command(plain, tool) == f"uv tool install --force '{checkout}[web]'"
    assert web_command.install_command(editable, tool) == (
        f"uv tool install --force -e '{checkout}[web]'"
    )
    assert web_command.install_command(wheel, tool) == (
        f"uv pip install --python {python} 'textual-serve<2,>=1.1'"
    )
    by_uv = installed(tmp_path / "d", f'{{"url": "{url}", "dir_info": {{}}}}', installer="uv")
    assert web_command.install_command(by_uv, tmp_path) == (
        f"uv pip install --python {python} '{checkout}[web]'"  # uv's environments have no pip
    )


def test_without_the_web_extra_a_pipx_install_is_told_pipxs_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "textual_serve", None)
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    monkeypatch.delitem(sys.modules, "coloretto.web.server", raising=False)
    monkeypatch.setattr(sys, "prefix", str(environment(tmp_path, web_command.PIPX_MARK)))
    assert main(["web"]) == 2
    error = capsys.readouterr().err
    assert "; install it with: pipx inject coloretto '" in error  # the extra's, in any order
    assert " 'textual-serve" in error
    assert "-m pip" not in error


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--host", "0.0.0.0"], "--host '0.0.0.0' listens on every address: give --public-url"),
        (["--public-url", "games.example.org"], "must start with http:// or https://"),
        (["--public-url", "https://x.org/?a=1"], "takes no ?query"),
        (["--port", "0"], "--port must be 1 to 65535, not 0"),
        (["--port", "http"], "--port must be a whole number"),
        (["--max-visitors", "0"], "--max-visitors must be 1 to 256"),
        (["--server", "nowhere"], "--server: expected HOST:PORT or a ws:// address"),
        (["--cafile", "ca.pem"], "--cafile is for a wss:// --server"),
        (["--server", "127.0.0.1:7787", "--cafile", "ca.pem"], "--cafile is for a wss://"),
        (["--server", "wss://127.0.0.1:7787", "--cafile", "/no/ca.pem"], "cannot load --cafile"),
    ],
)
def test_bad_options_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["web", *argv])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert message in error
    assert error.count("\n") == 1


def test_a_busy_port_is_a_one_line_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_coloretto(tmp_path, "web", "--port", str(port), timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"coloretto web: error: cannot listen on 127.0.0.1:{port} (")
    assert "address already in use" in done.stderr
    assert done.stderr.count("\n") == 1
    assert "is served" not in done.stdout  # the banner comes only once it listens


def test_each_visitor_runs_the_setup_screen_with_a_data_directory_of_its_own(
    tmp_path: Path,
) -> None:
    args = build_parser().parse_args(["web"])
    command = shlex.split(web_command.visitor_command(args, tmp_path))
    assert command == [sys.executable, "-m", "coloretto.cli.visitor", str(tmp_path)]
    assert web_command.visitor_arguments(args) == []  # plain coloretto: the setup screen


def test_with_a_server_each_visitor_runs_join_without_a_code() -> None:
    args = build_parser().parse_args(["web", "--server", "games.example.org:7787"])
    args.server = "ws://games.example.org:7787"  # as run checks it
    assert web_command.visitor_arguments(args) == [
        "join", "--server", "ws://games.example.org:7787", "--name", ""
    ]  # fmt: skip


def test_a_trusted_authority_is_passed_on_to_each_visitor_s_join(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ca.pem").write_text(certificate(tmp_path)[0].read_text())
    monkeypatch.chdir(tmp_path)  # a relative --cafile: the visitors run elsewhere
    parser = build_parser()
    args = parser.parse_args(["web", "--server", "wss://127.0.0.1:7787", "--cafile", "ca.pem"])
    args.cafile = web_command.trusted_authority(args, parser)
    assert web_command.visitor_arguments(args) == [
        "join", "--server", "wss://127.0.0.1:7787", "--cafile", str(tmp_path / "ca.pem"),
        "--name", "",
    ]  # fmt: skip


def test_the_visitor_process_plays_in_a_private_directory_it_removes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Path] = []

    def coloretto(argv: list[str]) -> int:
        home = Path(os.environ["COLORETTO_HOME"])
        seen.append(home)
        assert argv == ["stats"]
        assert home.parent == tmp_path
        assert home.stat().st_mode & 0o777 == 0o700
        (home / "saves").mkdir()
        return 3

    monkeypatch.setattr("coloretto.cli.visitor.coloretto", coloretto)
    assert visitor([str(tmp_path), "stats"]) == 3
    assert seen
    assert not seen[0].exists()
    assert visitor([str(tmp_path / "missing")]) == 1
    assert "no data directory in" in capsys.readouterr().err


def test_the_browser_tests_say_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert page.missing_browser() is None  # here, both are installed: the tests run
    monkeypatch.setattr(page, "CHROMIUM", tmp_path / "chromium")
    assert page.missing_browser() == (
        f"{tmp_path / 'chromium'} is missing: apt-get install chromium (.ci/run installs it); "
        "the browser tests use Debian's chromium, never playwright install"
    )
    monkeypatch.setattr(page.importlib.util, "find_spec", lambda name: None)
    assert page.missing_browser() == "playwright is missing: pip install -e '.[test]'"


def test_the_web_extras_fallback_is_the_one_pyproject_declares() -> None:
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert list(web_command.WEB_NEEDS) == project["project"]["optional-dependencies"]["web"]
