"""The ``sheetswiss`` command: a thin layer over :mod:`sheetswiss.api`, one verb per function.

Bad input a GM (game master: who runs the event) can fix is one line on stderr and exit 2; anything unexpected is
logged with its traceback and reported as one line naming the log, exit 1.

Words in the help texts: WBC, the World Boardgaming Championships, whose heat methods HMW (Heats: Most Wins)
and HSW (Heats: Single Win) the heat commands follow (RULES.md 5); TRF, FIDE's Tournament Report File; W x V,
the additive rating of RULES.md 8.1 (wins W times the value V of a final place).
"""

from __future__ import annotations

import gc
import os
import sys
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

import click

from . import __version__
from .backends.base import Backend

F = TypeVar("F", bound=Callable[..., Any])


def error_log() -> Path:
    """Where an unexpected failure's details go: the user's own log folder (``%LOCALAPPDATA%\\sheetswiss\\Logs``
    on Windows, ``~/Library/Logs/sheetswiss`` on macOS, ``$XDG_STATE_HOME/sheetswiss``, by default
    ``~/.local/state/sheetswiss``, elsewhere), never a folder other users can write."""
    if os.name == "nt":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "sheetswiss" / "Logs"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Logs" / "sheetswiss"
    else:
        base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "sheetswiss"
    return base / "error.log"


def _log_failure(details: str) -> str:
    """Write ``details`` to the error log; where they went, or why they could not be written, for the
    command's one line."""
    try:
        path = error_log()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(details, encoding="utf-8")
    except (OSError, RuntimeError) as e:  # RuntimeError: no home folder to put it in
        return f"the details could not be written to a log ({e})"
    return f"Details: {path}"


class BadInput(click.ClickException):
    """A GM-fixable problem: ``Error: Results!E14: ...`` on stderr, exit 2; several problems found in one
    run are a line each, every line starting ``Error:``."""

    exit_code = 2
    longest = 500
    """No line is longer than this, whatever a message quotes (the messages quote excerpts already)."""

    def show(self, file: IO[Any] | None = None) -> None:
        for line in self.format_message().splitlines():
            if len(line) > self.longest:
                line = line[:self.longest - 30] + f"… ({len(line):,} characters in all)"
            click.echo(f"Error: {line}", err=file is None, file=file)


class Cli(click.Group):
    """Turns library errors into one clear line, in one place for every command."""

    def invoke(self, ctx: click.Context) -> Any:
        from .errors import SheetswissError

        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", UserWarning)
                result = super().invoke(ctx)
            # e.g. a custom point scale under scale_check: warn; once each, though a command may read Settings twice
            for message in dict.fromkeys(str(warning.message) for warning in caught):
                click.echo(f"Warning: {message}", err=True)
            return result
        except SheetswissError as e:
            raise BadInput(str(e)) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            raise click.ClickException("interrupted; the workbook was left as it was") from None
        except BrokenPipeError:  # output piped into a reader that stopped early (`| head`): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None
        except Exception as e:
            where = _log_failure(traceback.format_exc())
            raise click.ClickException(
                f"unexpected failure ({type(e).__name__}: {e}); the workbook was left as it was. {where}") from None


def credentials_option(fn: F) -> F:
    """``--credentials FILE`` (or $SHEETSWISS_CREDENTIALS), for any command that may open a Google Sheet."""
    return click.option("--credentials", metavar="FILE", envvar="SHEETSWISS_CREDENTIALS",
                        help="Google credentials JSON (service-account key or authorised user) for a sheet.")(fn)


def source_argument(fn: F) -> F:
    """The event: a path to an .xlsx workbook, or a Google Sheet's URL, ``gsheet:KEY`` or key."""
    return click.argument("source", metavar="EVENT")(credentials_option(fn))


def backend(source: str, credentials: str | None) -> Backend:
    """The backend for a command's EVENT argument; retries on Google Sheets are reported on stderr."""
    from .api import open_backend

    return open_backend(source, credentials=credentials, notify=lambda line: click.echo(line, err=True))


def dry_run_option(fn: F) -> F:
    return click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")(fn)


@click.group(cls=Cli)
@click.version_option(__version__, prog_name="sheetswiss")
def cli() -> None:
    """Swiss pairings, standings and WBC heat qualification in your own spreadsheet.

    Start with `sheetswiss demo` to see a whole event, or `sheetswiss new EVENT.xlsx`.
    """


@cli.command()
@source_argument
@click.option("--format", "format_", type=click.Choice(["swiss", "heats"]), default="swiss", show_default=True,
              help="swiss: rounds paired by score; heats: WBC-style multi-player heats.")
@click.option("--seed", type=int, help="Random seed for pairings (default: a new random one).")
@dry_run_option
def new(source: str, credentials: str | None, format_: str, seed: int | None, dry_run: bool) -> None:
    """Create a ready workbook with every tab, Settings filled with defaults.

    Example:

    \b
        sheetswiss new convention.xlsx --format swiss
        sheetswiss new puerto-rico.xlsx --format heats
    """
    from . import api

    click.echo(api.new(backend(source, credentials), format=format_, seed=seed, dry_run=dry_run).text())


@cli.command()
@source_argument
@click.option("--redo", is_flag=True, help="Re-pair the last round while none of its results is entered.")
@click.option("--explain", is_flag=True, help="Print every pair's cost and why each float and bye.")
@click.option("--check", is_flag=True,
              help="Check the last round as edited in Results (players swapped before any result), rewrite "
                   "Pairings from it and log the edit.")
@dry_run_option
def pair(source: str, credentials: str | None, redo: bool, explain: bool, check: bool, dry_run: bool) -> None:
    """Pair the next round: append it to Results and rewrite Pairings.

    Example:

    \b
        sheetswiss pair convention.xlsx --explain
        sheetswiss pair convention.xlsx --check
    """
    from . import api

    if check:
        if redo or explain:
            raise click.UsageError("--check checks the round in Results as it is; it takes no --redo or --explain")
        click.echo(api.check_pairings(backend(source, credentials), dry_run=dry_run).text())
        return
    report = api.pair(backend(source, credentials), redo=redo, explain=explain, dry_run=dry_run,
                      progress=lambda line: click.echo(line, err=True))
    click.echo(report.text())


@cli.command()
@source_argument
@click.option("--explain", metavar="PLAYER",
              help="Print how each of PLAYER's tiebreak values was computed; writes nothing.")
@dry_run_option
def standings(source: str, credentials: str | None, explain: str | None, dry_run: bool) -> None:
    """Rewrite Standings from the results entered so far.

    Example:

    \b
        sheetswiss standings convention.xlsx --explain "Ana Lima"
    """
    from . import api

    click.echo(api.standings(backend(source, credentials), explain=explain, dry_run=dry_run).text())


@cli.command()
@source_argument
@click.option("--heat", type=click.IntRange(1), required=True, help="The heat to seat.")
@click.option("--players", "names", metavar='"A, B, ..."',
              help="Who is present (default: the marks in a 'Heat N' column of Players, else everyone active).")
@dry_run_option
def seat(source: str, credentials: str | None, heat: int, names: str | None, dry_run: bool) -> None:
    """Seat a heat at tables of the allowed sizes; append it to Heats and rewrite Seating.

    Players who met in earlier heats, and club-mates, are kept apart where possible.

    Example:

    \b
        sheetswiss seat puerto-rico.xlsx --heat 2
        sheetswiss seat puerto-rico.xlsx --heat 3 --players "Ana Lima, Bo Berg, Caro Chen"
    """
    from . import api

    players = [n.strip() for n in names.split(",") if n.strip()] if names else None
    click.echo(api.seat(backend(source, credentials), heat=heat, players=players, dry_run=dry_run).text())


@cli.command()
@source_argument
@dry_run_option
def qualify(source: str, credentials: str | None, dry_run: bool) -> None:
    """Rank the heat players by Latto points and rewrite Qualifiers (qualified, alternates, ties).

    Example:

    \b
        sheetswiss qualify puerto-rico.xlsx
    """
    from . import api

    click.echo(api.qualify(backend(source, credentials), dry_run=dry_run).text())


@cli.command()
@source_argument
@click.option("--absent", "names", metavar='"A, B, ..."',
              help="Players who did not show up for the round (also: a Players column headed with the round's "
                   "name, e.g. Semifinal, marking who showed up).")
@dry_run_option
def advance(source: str, credentials: str | None, names: str | None, dry_run: bool) -> None:
    """Seat the next elimination round of a heat event, or write the places after the final.

    The first run seats the quarterfinal, semifinal or final from the qualifiers present (an absent
    qualifier's seat goes to the next alternate); each next run seats the next round from the winners,
    once its scores are typed in Heats; after the final it writes the Places tab.

    Example:

    \b
        sheetswiss advance puerto-rico.xlsx --absent "Bo Berg"
    """
    from . import api

    absent = [n.strip() for n in names.split(",") if n.strip()] if names else []
    click.echo(api.advance(backend(source, credentials), absent=absent, dry_run=dry_run).text())


@cli.command()
@source_argument
@click.argument("out", metavar="OUT_DIR")
@click.option("--ends", metavar="HH:MM", type=click.DateTime(["%H:%M", "%Y-%m-%d %H:%M"]),
              help="When the current round ends (default: when it was paired plus the round_minutes setting); "
                   "the page shows it with a countdown.")
def publish(source: str, credentials: str | None, out: str, ends: Any) -> None:
    """Write a static, phone-friendly page set for players into OUT_DIR.

    Pairings by name with table numbers, and the standings: open index.html from a laptop at the
    venue, or put the folder on any web host.

    Example:

    \b
        sheetswiss publish convention.xlsx site/
        sheetswiss publish convention.xlsx site/ --ends 14:30
    """
    from . import api

    end = ends.time() if ends is not None and ends.year == 1900 else ends
    click.echo(api.publish(backend(source, credentials), out, ends=end).text())


@cli.command()
@source_argument
@dry_run_option
def playoffs(source: str, credentials: str | None, dry_run: bool) -> None:
    """Draw the playoff of the top cut, or advance it: type winners in the Playoffs tab, run again.

    The system is the playoff setting: single, magic_top2, mcintyre8, mcintyre4, double or mulligan.

    Example:

    \b
        sheetswiss playoffs convention.xlsx
    """
    from . import api

    click.echo(api.playoffs(backend(source, credentials), dry_run=dry_run).text())


@cli.command()
@click.argument("source", metavar="[EVENT]", required=False)
@click.option("--players", type=click.IntRange(2), help="Number of players (default: the event's).")
@click.option("--cut", type=click.IntRange(0), help="Top cut (default: the event's top_cut, else 8).")
@click.option("--rounds", type=click.IntRange(1), help="Rounds to plan for (default: the fewest with x-1 safe).")
@click.option("--prizes", metavar="AMOUNTS", help="Prize for each record from x-0 down, comma-separated: 500,200,50")
@credentials_option
@dry_run_option
def plan(source: str | None, players: int | None, cut: int | None, rounds: int | None, prizes: str | None,
         credentials: str | None, dry_run: bool) -> None:
    """How many rounds to run, and how many players to expect on each record.

    Magic's table, the rule that x-1 is always safe for the cut, the Swiss triangle, and prizes by
    record. With an EVENT, the plan is also written to its Plan tab.

    Example:

    \b
        sheetswiss plan --players 88 --cut 8 --prizes 500,200,50
    """
    from fractions import Fraction

    from . import api

    try:
        amounts = [Fraction(p.strip()) for p in prizes.split(",") if p.strip()] if prizes else []
    except ValueError:
        raise BadInput(f"--prizes: {prizes!r} is not a comma-separated list of amounts") from None
    target = backend(source, credentials) if source else None
    click.echo(api.plan(target, players=players, cut=cut, rounds=rounds, prizes=amounts, dry_run=dry_run).text())


@cli.command()
@click.argument("sources", metavar="EVENT...", nargs=-1, required=True)
@click.option("--elo", is_flag=True, help="Also compute Elo ratings from every game, events in the order given.")
@click.option("--into", metavar="EVENT", help="Write each player's Elo into EVENT's empty Players.Rating cells.")
@credentials_option
@dry_run_option
def rating(sources: tuple[str, ...], elo: bool, into: str | None, credentials: str | None, dry_run: bool) -> None:
    """Ratings across past events: the additive W x V rating (match wins x placing), and Elo with --elo.

    With --into, the Elo ratings are written into the Rating column of the next event's Players tab,
    for seeding round 1, but only into empty cells: ratings the GM typed are kept.

    Examples:

    \b
        sheetswiss rating spring.xlsx summer.xlsx autumn.xlsx --elo
        sheetswiss rating spring.xlsx summer.xlsx --into winter.xlsx
    """
    from . import api

    target = backend(into, credentials) if into else None
    click.echo(api.rating([backend(s, credentials) for s in sources], elo=elo, into=target,
                          dry_run=dry_run).text())


@cli.command()
@source_argument
@click.option("--from", "from_", metavar="TAB|FILE.csv",
              help="Where the registrations are: a tab (default: the registrations setting, "
                   "'Form Responses 1') or a CSV file.")
@dry_run_option
def register(source: str, credentials: str | None, from_: str | None, dry_run: bool) -> None:
    """Add new registrations to Players, from a form's responses tab or a CSV file.

    Names already in Players, or registered twice, are listed and not added. Answers go under the
    Players column with the same header (Club, Rating, Email ...). The source is only read.

    Example:

    \b
        sheetswiss register convention.xlsx --dry-run
        sheetswiss register convention.xlsx --from signups.csv
    """
    from . import api

    click.echo(api.register(backend(source, credentials), from_=from_, dry_run=dry_run).text())


@cli.command()
@source_argument
@dry_run_option
def reports(source: str, credentials: str | None, dry_run: bool) -> None:
    """Fill empty Result cells from the results players reported (the Reports tab).

    A result is filled when both players' reports agree (or one, with reports_needed: 1); a result
    you typed is never changed; conflicts and reports that do not fit are listed for you.

    Example:

    \b
        sheetswiss reports convention.xlsx --dry-run
    """
    from . import api

    click.echo(api.reports(backend(source, credentials), dry_run=dry_run).text())


@cli.command()
@source_argument
@click.option("--round", "round_", type=click.IntRange(1), help="The round (default: the last paired one).")
@click.option("--paper", type=click.Choice(["letter", "a4"], case_sensitive=False),
              help="Paper to lay the slips out for (default: the paper setting, letter).")
@dry_run_option
def slips(source: str, credentials: str | None, round_: int | None, paper: str | None, dry_run: bool) -> None:
    """Write the Slips tab: a result slip per table, to print and cut.

    Example:

    \b
        sheetswiss slips convention.xlsx --paper a4
    """
    from . import api

    click.echo(api.slips(backend(source, credentials), round_=round_, paper=paper, dry_run=dry_run).text())


@cli.command()
@source_argument
@click.argument("out", metavar="[SITE_DIR]", required=False)
@click.option("--every", type=float, metavar="SECONDS",
              help="How often to look: default 2 s for an .xlsx (it is read only when saved), 5 s for a "
                   "Google Sheet (at least 5).")
@click.option("--ends", metavar="HH:MM", type=click.DateTime(["%H:%M", "%Y-%m-%d %H:%M"]),
              help="When the current round ends, as for publish.")
def watch(source: str, credentials: str | None, out: str | None, every: float | None, ends: Any) -> None:
    """Run what the Control tab asks, and keep the players' pages in SITE_DIR current; Ctrl-C stops.

    Choose a command in the Control tab and tick Run: watch runs it and writes the status and the
    output beside it. With SITE_DIR it also republishes the pages (and event.json) whenever the
    workbook changed, a line per change; a bad cell leaves the pages as they were, with a notice,
    until it is fixed. The Control tab's publish writes into SITE_DIR, never a folder named in the sheet.

    Example:

    \b
        sheetswiss watch convention.xlsx site/
        sheetswiss watch https://docs.google.com/spreadsheets/d/KEY/edit
    """
    from . import api

    def failure(error: BaseException) -> str:
        return _log_failure("".join(traceback.format_exception(error)))

    end = ends.time() if ends is not None and ends.year == 1900 else ends
    api.watch(backend(source, credentials), out, every=every, ends=end, echo=click.echo, failure=failure)


@cli.command()
@source_argument
@dry_run_option
def control(source: str, credentials: str | None, dry_run: bool) -> None:
    """Add the Control tab to an event made before it existed (new makes it with the other tabs).

    Example:

    \b
        sheetswiss control convention.xlsx
    """
    from . import api

    click.echo(api.control(backend(source, credentials), dry_run=dry_run).text())


@cli.command()
@click.argument("source", metavar="SOURCE")
@click.argument("destination", metavar="DEST")
@credentials_option
@dry_run_option
def copy(source: str, destination: str, credentials: str | None, dry_run: bool) -> None:
    """Copy an event between an .xlsx file and a Google Sheet (either way).

    Prepare offline and go live, or keep an offline backup during the event.

    Example:

    \b
        sheetswiss copy convention.xlsx https://docs.google.com/spreadsheets/d/KEY/edit
        sheetswiss copy gsheet:KEY backup.xlsx
    """
    from . import api

    click.echo(api.copy(backend(source, credentials), backend(destination, credentials), dry_run=dry_run).text())


@cli.command()
@click.argument("client_secret", metavar="CLIENT_SECRET.json")
def login(client_secret: str) -> None:
    """Sign in with your own Google account instead of a service account.

    CLIENT_SECRET.json is an OAuth client ("Desktop app") from the Google Cloud console. A browser
    opens; the credentials are saved in your config folder and used by every command.

    Example:

    \b
        sheetswiss login ~/Downloads/client_secret.json
    """
    from . import api

    click.echo(api.login(client_secret).text())


@cli.command()
@click.argument("directory", default=".", metavar="[DIR]")
@click.option("--format", "format_", type=click.Choice(["swiss", "heats", "wbc"]), default="swiss",
              show_default=True, help="swiss: 40 players, 6 rounds; heats: 60 players, 4 heats; wbc: 60 players, "
              "3 heats under HMW-P, then the semifinal, the final and the places.")
@click.option("--seed", type=int, default=2026, show_default=True, help="Random seed of the sample event.")
def demo(directory: str, format_: str, seed: int) -> None:
    """Play a sample event through and leave the finished workbook in DIR.

    Example:

    \b
        sheetswiss demo /tmp/demo
        sheetswiss demo /tmp/demo --format heats
        sheetswiss demo /tmp/demo --format wbc
    """
    from . import demo as demo_module

    run = {"swiss": demo_module.run, "heats": demo_module.run_heats, "wbc": demo_module.run_wbc}[format_]
    click.echo(run(directory, seed=seed, progress=click.echo).text())


@cli.command("export")
@source_argument
@click.argument("out", metavar="OUT")
@click.option("--format", "format_", metavar="trf|nrtm|csv",
              help="trf (FIDE TRF), nrtm (Netrunner results JSON) or csv; default: from OUT's extension.")
@click.option("--tab", type=click.Choice(["players", "results", "standings"]), default="standings",
              show_default=True, help="csv: the tab to write.")
def export_(source: str, credentials: str | None, out: str, format_: str | None, tab: str) -> None:
    """Write the event to a file other programs read: a FIDE TRF, Netrunner's results JSON, or CSV.

    Example:

    \b
        sheetswiss export club-champs.xlsx club-champs.trf
        sheetswiss export store-champs.xlsx store-champs.json --format nrtm
        sheetswiss export club-champs.xlsx players.csv --tab players
    """
    from .interchange import export

    click.echo(export(backend(source, credentials), out, format=format_, tab=tab).text())


@cli.command("import")
@click.argument("infile", metavar="IN")
@click.argument("destination", metavar="EVENT")
@credentials_option
@dry_run_option
def import_(infile: str, destination: str, credentials: str | None, dry_run: bool) -> None:
    """Bring a TRF or Netrunner results JSON into a workbook (a new one made from it, or an existing one's next
    rounds), or a CSV of players or results into an existing workbook.

    Example:

    \b
        sheetswiss import club-champs.trf club-champs.xlsx
        sheetswiss import registrations.csv club-champs.xlsx
        sheetswiss import cobra-export.json store-champs.xlsx
    """
    from .interchange import import_file

    click.echo(import_file(infile, backend(destination, credentials), dry_run=dry_run).text())


GC_THRESHOLDS = (50_000, 20, 10)
"""How often the command's process looks for reference cycles to free (:func:`gc.set_threshold`): after
50,000 new objects rather than Python's 700. A command on a big event builds hundreds of thousands of
objects that live until it ends (every cell read, the event, the round state) and frees few cycles; at the
default the collector walks them again and again, 14 full passes and about a fifth of the CPU time of
``pair`` on 8,000 players (``benchmarks/command.py``). Cycles are still freed, only less often."""


def main() -> None:
    """Entry point of the ``sheetswiss`` command."""
    gc.set_threshold(*GC_THRESHOLDS)
    cli()
