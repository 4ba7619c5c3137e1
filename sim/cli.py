"""The `sim` command line: run studies, replay games, list games, strategies and parameters, benchmark."""

import argparse
import sys
import textwrap

from .errors import UserError, one_line
from .study import Study

EXAMPLES = """\
examples:
  sim games
  sim strategies bang_dice
  sim params bang_dice
  sim run bang_dice --games 100000 --players 5 --seed 1
  sim run bang_dice --players 4-8 --lineup belief,omniscient,aggressive --all-rotations
  sim run gunny_town --lineup lawman,gambler,lawman,gambler --all-rotations --mirror
  sim run bang_dice --strategies belief,belief,random,random,random --set module.ghost=on
  sim run --study examples/studies/bang_full.toml --games 2000     # a study file, a flag over it
  sim replay results/bang_dice_5p_100000_s1 42
  sim bench bang_dice --games 1000000
"""


SWEEP_EXAMPLES = """\
examples:
  sim sweep examples/sweeps/bang_ghost.toml --dry-run
  sim sweep examples/sweeps/bang_ghost.toml --out results/ghost
  sim sweep bang_dice --players 5-8 --grid module.ghost=off,on --games 50000 --seed 1
  sim sweep bang_dice --players 5 --grid life.BART_CASSIDY=7:10:1 --adaptive-metric order0_win_share \\
      --adaptive-width 0.01 --max-games 400000
  sim sweep examples/sweeps/bang_ghost.toml --scheduler tcp://10.0.0.5:8786 --out /mnt/cluster/ghost
"""

BENCH_EXAMPLES = """\
examples:
  sim bench bang_dice --players 5 --games 200000 --json bench/bang_dice.json
  sim bench raccoon_tycoon --players 4 --games 200000 --nojit-games 50
  sim bench cold_comfort --games 20000 --nojit-games 0
  sim bench --compare bench/raccoon_tycoon.json bench/gunny_town.json    # make bench-check: all five
"""

SOLVE_EXAMPLES = """\
examples:
  sim solve cold_comfort --players 4 --param gold.start_step --between=-2:4
  sim solve raccoon_tycoon --players 4 --param setup.free_tokens.order0 --between 0:4 --max-games 400000
  sim solve bang_dice --players 5 --param count.sheriff_bonus --between 0:4 --target 0.3
"""


LADDER_EXAMPLES = """\
examples:
  sim ladder results/bang_dice_5p_20000_s1 --plan
  sim ladder results/bang_dice_5p_20000_s1 --search-games 100 --max-batches 4
  sim ladder results/gunny_town_4p_5000_s1 --rungs 'tuned;search;search64'
"""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        # one line, naming the problem; argparse's usage block is one `--help` away
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        sys.exit(2)


def parse_players(text):
    """'5', '3,4,5' or '3-8' -> tuple of ints."""
    from .inputs import parse_player_counts

    return parse_player_counts(text, "--players")


def parse_sets(pairs):
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise UserError(f"--set takes name=value (got '{pair}')")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def parse_names(text, flag="--lineup"):
    """'a,b,c' -> names; None when the flag is not given.  A flag given with no names is an error, not the
    default line-up (`--lineup ,` used to run the default silently)."""
    if text is None:
        return None
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise UserError(
            f"{flag} names no strategy (got '{text}'); give names separated by commas, see `sim strategies GAME`"
        )
    return names


def _keep_freed_memory():
    """Keep freed memory in the process heap (glibc only; elsewhere nothing changes).  By default glibc hands every
    large freed block back to the OS, so each chunk's tables are page-faulted in afresh: measured on Raccoon
    Tycoon, chunk_tables on a 50,000-game chunk in the writer thread took 108-136 ms, and 60-62 ms with this.
    Memory stays flat (every chunk needs the same sizes) but is not returned until the process ends, so the
    command line calls this, not the library; first thing, before numba and pyarrow start threads (measured:
    set after those imports it saves about half as much)."""
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD: blocks up to 1 GiB come from the heap
        libc.mallopt(-1, 2**31 - 1)  # M_TRIM_THRESHOLD: never trim the heap top
        libc.mallopt(-8, 1)  # M_ARENA_MAX: the writer thread uses the main heap too
    except (OSError, AttributeError):
        pass


def cmd_games(args):
    from .game import game_names, get_game

    for name in game_names():
        try:
            g = get_game(name)
        except Exception as e:  # one broken game folder (e.g. mid-way through adding one) must not hide the others
            print(f"{name:16s} cannot be loaded: {type(e).__name__}: {one_line(e)}")
            continue
        note = "  [rests on ASSUMED components]" if g.assumed_components else ""
        print(f"{name:16s} {g.title} ({g.players[0]}-{g.players[1]} players){note}")


def cmd_strategies(args):
    from .game import get_game

    g = get_game(args.game)
    from .knobs import doc_lines
    from .search import search_names

    tables = []
    for s in [g.strategy(n) for n in g.strategy_names() + list(search_names())]:
        hidden = " [reads hidden information]" if s.sees_hidden else ""
        if s.knobs is not None:
            changed = ", ".join(f"{k}={s.knobs.knob(k).show(s.weights[s.knobs.index(k)])}" for k in s.changes)
            weights = f" Knobs: {changed or 'the defaults'}."
            tables += [t for t in [s.knobs] if all(t is not u for u in tables)]
        else:
            weights = f" weights={list(s.weights)}" if s.weights else ""
        print(f"{s.name:16s} {s.doc}{hidden}{weights}")
    print(f"default line-up: {', '.join(g.default_lineup)}")
    for t in tables:
        print("knobs (strategy.<preset>.<knob>; default, type and range, meaning):")
        for line in doc_lines(t):
            print("  " + line)


def cmd_params(args):
    from .params import PROVENANCE
    from .game import get_game

    g = get_game(args.game)
    for p in g.params.params:
        if args.grep and args.grep not in p.name:
            continue
        rng = (
            f" choices: {'/'.join(p.choices)}"
            if p.kind == "choice"
            else (f" range [{p.lo}, {p.hi}]" if p.lo is not None or p.hi is not None else "")
        )
        src = f" ({p.src})" if p.src else ""
        print(f"{p.name} = {p.show(p.default)}  [{p.kind}; {PROVENANCE[p.prov]}{src}]{rng}")
        if p.doc:
            print(textwrap.indent(textwrap.fill(p.doc, 100), "    "))


def cmd_run(args):
    _keep_freed_memory()
    from .knobs import expand_lineup
    from .runner import DEFAULT_GAMES, run

    study = Study.from_args(args, games=DEFAULT_GAMES)
    study.load_strategy_files()
    lineup = expand_lineup(study.spec, list(study.lineup) if study.lineup else None)  # `tuned`: the tuned presets
    study = study.replace(lineup=lineup)
    study = study.replace(out=study.out or default_run_out(study))
    path = run(study, overwrite=args.overwrite, standings=args.standings, scheduler=args.scheduler)
    print(f"results in {path}")


def cmd_duel(args):
    try:
        from .interop.duel import run_duel
    except ImportError as e:
        raise UserError(
            f"sim duel needs the interop extra ({e.name} is missing): pip install -e '.[interop]'"
        ) from None
    from .game import get_game

    g = get_game(args.game)
    players = args.players or g.default_players
    out = args.out or f"results/{g.name}_duel_{players}p_{args.games}_s{args.seed}"
    path = run_duel(
        g.name,
        out,
        args.seats,
        players=players,
        games=args.games,
        seed=args.seed,
        params=parse_sets(args.set),
        preset=args.preset,
        chunk_size=args.chunk_size,
        progress=not args.no_progress,
        overwrite=args.overwrite,
        command=" ".join(sys.argv),
    )
    print(f"results in {path}")


def default_run_out(study):
    """results/<game>_<players>p_<games>_s<seed>, plus a short hash of every other setting that changes the games
    (line-up, seats, rotations, parameters) when one differs from the default: runs of a shell loop over --set
    values get folders of their own instead of sharing one."""
    from .runner import prepare, settings_hash

    players = study.player_counts
    name = f"results/{study.name}_{'-'.join(map(str, players))}p_{study.games}_s{study.seed}"
    spec, design, pvec = prepare(
        study.spec,
        players,
        study.games,
        list(study.lineup) if study.lineup else None,
        list(study.strategies) if study.strategies else None,
        study.all_rotations,
        study.overrides,
        study.mirror,
    )
    tag = settings_hash(spec, design, pvec)
    return f"{name}_{tag}" if tag else name


def cmd_check(args):
    from .check import check_folder

    verdict = check_folder(args.results, checksum=not args.quick)
    for line in verdict.lines(args.results):
        print(line)
    if not verdict.ok or verdict.stray:
        raise UserError(
            f"{args.results} is incomplete or damaged ({len(verdict.bad)} bad chunks, "
            f"{len(verdict.missing)} not played, {len(verdict.stray)} stray files); run the command "
            f"that wrote it again to replay them"
        )


def cmd_readings(args):
    _keep_freed_memory()
    from .readings import DEFAULT_GAMES, run_readings, table_lines

    study = Study.from_args(args, games=DEFAULT_GAMES)
    n = study.player_count("readings")
    out = study.out or f"results/readings_{study.name}_{n}p_s{study.seed}" + (
        f"_{study.preset}" if study.preset else ""
    )
    only = parse_names(args.only, "--only")
    summary = run_readings(study.replace(out=out), max_games=args.max_games, only=only, overwrite=args.overwrite)
    for line in table_lines(summary):
        print(line)
    print(f"results in {out} (summary.parquet: one row per reading and metric)")


def cmd_replay(args):
    from .replay import replay

    lines, notes, mismatch = replay(args.run, args.index, args.config)
    for line in notes:
        print(line, file=sys.stderr)
    for line in lines:
        print(line)
    if mismatch:
        raise UserError(mismatch)


def cmd_bench(args):
    _keep_freed_memory()
    from .bench import SAMPLES, bench, compare
    from .game import get_game

    if args.compare:
        if args.game is not None or args.json:
            raise UserError("--compare reads the game from each file: give no game and no --json with it")
        if args.repeat is not None and args.repeat < 1:
            raise UserError(f"--repeat must be at least 1 (got {args.repeat})")
        compare(args.compare, samples=args.repeat or SAMPLES)
        return
    args.repeat = 3 if args.repeat is None else args.repeat
    g = get_game(args.game or "bang_dice")
    from .runner import check_games

    if args.games > 1:
        check_games(args.games)  # the upper limit; below 1 is named together with --repeat
    if args.games < 1 or args.nojit_games < 0 or args.repeat < 1:
        raise UserError(
            f"--games and --repeat must be at least 1 and --nojit-games at least 0 (got "
            f"{args.games}, {args.repeat}, {args.nojit_games})"
        )
    bench(g.name, args.players or g.default_players, args.games, args.nojit_games, args.json, repeat=args.repeat)


# the study's fields that, given beside a sweep file (or for a sweep given by flags), change the sweep: its
# default folder then carries a hash of the whole sweep
SWEEP_CHANGES = ("players", "games", "seed", "lineup", "strategies", "all_rotations", "mirror", "params", "chunk_size")


def cmd_sweep(args):
    _keep_freed_memory()
    from .knobs import expand_sweep_lineups
    from .sweep import build_sweep, dry_run, print_summary, raw_from_study, run_sweep, set_threads, sweep_hash
    from .sweep.spec import sweep_game, sweep_source

    where = f"sweep file {args.source}" if str(args.source).endswith(".toml") else "sweep"
    raw, _ = sweep_source(args.source)
    try:
        spec = sweep_game(raw, where)
    except UserError:
        build_sweep(raw, where)  # its first complaint, in its order (an unknown key before a missing game)
        raise
    study = Study.from_args(args, game=spec)
    if study.name != spec.name:
        raise UserError(f"--study names {study.name}, the sweep {spec.name}: give one game")
    sweep_flags = (args.grid, args.zip, args.adaptive_metric, args.adaptive_width, args.max_games, args.confidence)
    raw, name = raw_from_study(
        args.source,
        study,
        grids=args.grid,
        zips=args.zip,
        adaptive_metric=args.adaptive_metric,
        adaptive_width=args.adaptive_width,
        max_games=args.max_games,
        confidence=args.confidence,
    )
    raw = expand_sweep_lineups(raw, list(study.strategy_files))  # preset files; `tuned`: the shipped tuned presets
    sweep = build_sweep(raw, where)
    if args.dry_run:
        set_threads(study.threads)
        dry_run(sweep)
        return
    out = study.out or f"results/sweep_{name}_s{sweep.seed}"
    if not study.out and (study.given & set(SWEEP_CHANGES) or any(v not in (None, []) for v in sweep_flags)):
        # settings on top of a file (or a sweep given by flags): the name carries a hash of the whole sweep, so two
        # different sweeps never share the default folder
        out = f"{out}_{sweep_hash(sweep)}"
    frame = run_sweep(
        sweep,
        out,
        scheduler=args.scheduler,
        fresh=args.fresh,
        progress=study.progress,
        threads=study.threads,
        command=study.command,
    )
    print_summary(sweep, frame)
    print(f"results in {out} (summary.parquet: one row per configuration)")


def cmd_tune(args):
    _keep_freed_memory()
    from .knobs import expand_lineup
    from .tune import report_lines, tune

    study = Study.from_args(args)
    study.load_strategy_files()
    n = study.player_count("tune")
    out = study.out or f"results/tune_{study.name}_{args.strategy}_{n}p_s{study.seed}"
    expand_lineup(study.spec, [args.strategy])  # a shipped <preset>_tuned can be tuned further
    field = expand_lineup(study.spec, parse_names(args.field, "--field"))  # `tuned`: the shipped tuned presets
    result = tune(
        study.replace(out=out, command="sim " + " ".join(sys.argv[1:])),
        args.strategy,
        evals=args.evals,
        games_per_eval=args.games_per_eval,
        popsize=args.popsize,
        knobs=parse_names(args.knobs, "--knobs"),
        field=field,
        final_games=args.final_games,
        name=args.name,
        fresh=args.fresh,
    )
    for line in report_lines(result):
        print(line)
    print(f"preset file {out}/{result['preset']}.toml; every evaluation in {out}/evaluations.parquet")


def cmd_solve(args):
    _keep_freed_memory()
    from .solve import report_lines, solve_game, write_result

    players = parse_players(args.players) if args.players else None
    if players and len(players) != 1:
        raise UserError(f"sim solve works on one player count at a time (got {args.players})")
    if args.out:
        from .errors import check_writable_file

        check_writable_file(args.out, "--out")  # before the solve, not after an hour of games
    from .knobs import load_files

    load_files(args.game, args.strategy_file)
    result, info = solve_game(
        args.game,
        args.param,
        metric=args.metric,
        target=args.target,
        players=players[0] if players else None,
        lineup=parse_names(args.lineup),
        strategies=parse_names(args.strategies, "--strategies"),
        all_rotations=args.all_rotations,
        overrides=parse_sets(args.set),
        between=args.between,
        games=args.games,
        max_games=args.max_games,
        seed=args.seed,
        confidence=args.confidence,
        threads=args.threads,
    )
    for line in report_lines(result, info):
        print(line)
    if args.out:
        print(f"details in {write_result(args.out, result, info)}")


def cmd_report(args):
    from .report import build_report

    # the report verifies every part's checksum before it reads (sim.report.build.open_results): unfinished
    # chunks are left out, a damaged one refuses the report in one line
    for path in build_report(args.results, out=args.out, pdf=args.pdf, solve=args.solve or (), targets=args.target):
        print(f"report written to {path}")


def cmd_audit(args):
    from .audit import run_audit

    _, text, out = run_audit(
        Study.from_args(args),
        strategy=args.strategy,
        decisions=args.decisions,
        rollouts=args.rollouts,
        cap=args.cap,
        rollout=args.rollout,
        per_game=args.per_game,
        sampling=args.sampling,
        overwrite=args.overwrite,
    )
    print(text, end="")
    print(f"decisions in {out}/decisions; `sim replay {out} GAME` shows a game")


def cmd_field(args):
    _keep_freed_memory()
    from .field import report_lines, run_field
    from .game import get_game
    from .knobs import expand_lineup, load_files

    load_files(args.game, args.strategy_file)
    g = get_game(args.game)
    pool = expand_lineup(g, parse_names(args.pool)) if args.pool else None
    if args.threads:
        import numba

        numba.set_num_threads(int(args.threads))
    doc = run_field(
        g,
        args.players or g.default_players,
        pool=pool,
        games=args.games,
        iterations=args.iterations,
        evals=args.evals,
        games_per_eval=args.games_per_eval,
        final_games=args.final_games,
        seed=args.seed,
        work=args.work,
        out_file=args.out,
        params=parse_sets(args.set),
        progress=not args.no_progress,
        command="sim " + " ".join(sys.argv[1:]),
    )
    for line in report_lines(doc):
        print(line)


def cmd_improve(args):
    _keep_freed_memory()
    from .game import get_game
    from .improve import improve, report_lines
    from .knobs import load_files

    load_files(args.game, args.strategy_file)
    g = get_game(args.game)
    if args.threads:
        import numba

        numba.set_num_threads(int(args.threads))
    log, out = improve(
        g,
        args.strategy,
        args.players or g.default_players,
        iterations=args.iterations,
        positions=args.positions,
        rollouts=args.rollouts,
        agreement=args.agreement,
        evals=args.evals,
        games_per_eval=args.games_per_eval,
        final_games=args.final_games,
        search_rollouts=args.search_rollouts,
        search_games=args.search_games,
        sigma0=args.sigma0,
        field=args.field,
        seed=args.seed,
        work=args.work,
        out_file=args.out,
        progress=not args.no_progress,
        command="sim " + " ".join(sys.argv[1:]),
    )
    for line in report_lines(log):
        print(line)
    if out is not None:
        print(f"preset file {out}")


def cmd_cost(args):
    import json as _json

    from .cost import cost, report_lines
    from .knobs import load_files

    load_files(args.game, args.strategy_file)
    c = cost(args.game, args.players, parse_names(args.pool), args.strategy, args.games)
    for line in report_lines(c):
        print(line)
    if args.json:
        from pathlib import Path

        Path(args.json).write_text(_json.dumps(c, indent=1))


def cmd_effect(args):
    import json as _json

    from .effect import item_effect, report_lines, to_json

    study = Study.from_args(args, games=10_000)
    res = item_effect(study, args.item, deal_seat=args.deal_to_seat)
    for line in report_lines(res):
        print(line)
    if study.out:
        with open(study.out, "w") as f:
            _json.dump(to_json(res), f, indent=1, default=float)
        print(f"details in {study.out}")


def cmd_ladder(args):
    from . import ladder as L

    rungs = L.parse_rungs(args.rungs)
    if args.plan:
        n = parse_players(args.players)[0] if args.players else 4
        spec, table = L.plan(args.run, rungs, players=n, games=args.plan_games, threads=args.threads or 1)
        for line in L.plan_lines(spec, table, n, L.GAMES if args.games is None else args.games, args.search_games):
            print(line)
        return
    _, _, spec = L.open_run(args.run)
    summary = L.run_ladder(
        args.run,
        Study.from_args(args, game=spec.name),
        rungs,
        search_games=args.search_games,
        max_batches=args.max_batches,
        effect_games=args.effect_games,
        targets=args.target,
        fresh=args.fresh,
        log=L.log_stderr,
        scheduler=args.scheduler,
    )
    for line in L.summary_lines(summary):
        print(line)
    print(f"ladder written to {args.run}/ladder (summary.parquet); `sim report {args.run}` shows it")


# Options several commands take, each declared once here: name -> (flags, argparse keywords).  A command takes them
# through a parent parser (`shared`), giving its own help text or default only where its meaning differs.
SHARED = {
    "game": (("game",), {"help": "the game (see `sim games`)"}),
    "players": (("--players",), {"help": "player count(s): 5, 3,4,5 or 3-8 (default: the game's usual count)"}),
    "games": (("--games",), {"type": int, "help": "games"}),
    "seed": (("--seed",), {"type": int, "help": "seed (default 0)"}),
    "lineup": (
        ("--lineup",),
        {
            "help": "strategies rotated over the seats (default: the game's line-up; `tuned`: that line-up played "
            "by the game's shipped tuned presets)"
        },
    ),
    "strategies": (("--strategies",), {"help": "one strategy per seat, fixed (no rotation)"}),
    "all_rotations": (
        ("--all-rotations",),
        {"action": "store_true", "help": "replay each seed under every rotation (common random numbers)"},
    ),
    "mirror": (
        ("--mirror",),
        {
            "action": "store_true",
            "help": "rotate the line-up in both directions, so no strategy always sits on the same one's left "
            "(for head to head line-ups such as A,B,A,B in games with left/right effects)",
        },
    ),
    "set": (
        ("--set",),
        {
            "action": "append",
            "metavar": "NAME=VALUE",
            "help": "override a parameter, or a knob as strategy.<preset>.<knob> (repeatable)",
        },
    ),
    "preset": (("--preset",), {"help": "a named set of rule values, e.g. bang_dice: base, full (--set wins over it)"}),
    "strategy_file": (
        ("--strategy-file",),
        {
            "action": "append",
            "metavar": "TOML",
            "help": "a preset file (base preset + knob values) that line-ups can name (repeatable)",
        },
    ),
    "out": (("--out",), {"help": "where to write"}),
    "chunk_size": (("--chunk-size",), {"type": int, "help": "games per part file"}),
    "threads": (("--threads",), {"type": int, "help": "threads (default: all cores)"}),
    "overwrite": (("--overwrite",), {"action": "store_true", "help": "replace a different study already in --out"}),
    "fresh": (("--fresh",), {"action": "store_true", "help": "discard a different study already in --out"}),
    "no_progress": (("--no-progress",), {"action": "store_true", "help": "no progress bar"}),
    "scheduler": (
        ("--scheduler",),
        {
            "metavar": "tcp://HOST:PORT",
            "help": "play the chunks on this dask.distributed scheduler's workers (the folder must be shared with "
            "them; the results are the same)",
        },
    ),
    "study": (
        ("--study",),
        {
            "metavar": "FILE",
            "help": "a study file (TOML: game, players, games, seed, lineup or strategies, preset, threads, out, "
            "[set] ...); flags given beside it win over its values",
        },
    ),
    "strategy": (("--strategy",), {"help": "the preset"}),
    "pool": (("--pool",), {"help": "the starting presets, comma-separated (default: the default line-up's)"}),
    "evals": (("--evals",), {"type": int, "help": "evaluations"}),
    "games_per_eval": (("--games-per-eval",), {"type": int, "help": "games per tuning evaluation"}),
    "final_games": (("--final-games",), {"type": int, "help": "games of the closing comparison"}),
    "max_games": (("--max-games",), {"type": int, "help": "most games"}),
    "confidence": (("--confidence",), {"type": float, "help": "interval level (default 0.95)"}),
    "work": (("--work",), {"help": "work folder, resumable"}),
    "json": (("--json",), {"help": "also write the figures to this file"}),
    "target": (("--target",), {"metavar": "SIDE=SHARE,...", "help": "team games: target win share of sides"}),
}

# what a command that takes a Study (sim.study) shares: the study's fields and --study
STUDY = ("study", "players", "games", "seed", "set", "out", "threads", "no_progress")
LINEUP = ("lineup", "strategies", "all_rotations", "mirror")


def shared(*names, **changes):
    """A parent parser with the shared options `names`; changes: {name: argparse keywords over the declared ones}
    (a command's own help text, default, type)."""
    parent = argparse.ArgumentParser(add_help=False)
    for name in names:
        flags, kwargs = SHARED[name]
        parent.add_argument(*flags, **{**kwargs, **changes.get(name, {})})
    return parent


def _command(sub, name, help, parents=(), examples=None, **kwargs):
    """A sub-command's parser (its examples, when it has some, as the --help epilog)."""
    if examples:
        kwargs.update(epilog=examples, formatter_class=argparse.RawDescriptionHelpFormatter)
    return sub.add_parser(name, help=help, parents=list(parents), **kwargs)


def _listing_parsers(sub):
    s = _command(sub, "games", "list the games")
    s.set_defaults(func=cmd_games)
    s = _command(sub, "strategies", "list a game's strategies", [shared("game")])
    s.set_defaults(func=cmd_strategies)
    s = _command(sub, "params", "list a game's parameters with defaults and provenance", [shared("game")])
    s.add_argument("--grep", help="only names containing this text")
    s.set_defaults(func=cmd_params)


def _run_parser(sub):
    parents = shared(
        "game",
        *STUDY,
        *LINEUP,
        "preset",
        "strategy_file",
        "chunk_size",
        "overwrite",
        "scheduler",
        game={"nargs": "?", "help": "the game (or game = ... in the --study file)"},
        games={"help": "games per player count (default 10000)"},
        seed={"help": "run seed (default 0)"},
        out={"help": "run folder (default results/<game>_<players>p_<games>_s<seed>)"},
        chunk_size={"help": "games per part file (default 50000; 5000 with --standings)"},
        overwrite={
            "help": "replace a different run (other request or game code) already in --out; the same run is "
            "resumed either way"
        },
    )
    s = _command(sub, "run", "play a study and write parquet results", [parents], EXAMPLES)
    s.add_argument(
        "--standings",
        action="store_true",
        help="also keep every seat's standing each round (the standings table: lead changes and "
        "comebacks in the report's arc section); the same games, played a little slower",
    )
    s.set_defaults(func=cmd_run)


def _duel_parser(sub):
    parents = shared(
        "game",
        "players",
        "games",
        "seed",
        "set",
        "preset",
        "out",
        "chunk_size",
        "overwrite",
        "no_progress",
        players={"type": int, "help": "player count (default: the game's default)"},
        games={"default": 100, "help": "games (default 100)"},
        seed={"default": 0, "help": "run seed (default 0)"},
        preset={"help": "a named set of rule values (--set wins over it)"},
        out={"help": "run folder (default results/<game>_duel_<players>p_<games>_s<seed>)"},
        chunk_size={"default": 10, "help": "games per part file (default 10): the unit of resume"},
        overwrite={"help": "replace a different run already in --out"},
    )
    help = "OpenSpiel players (ismcts, mcts) in some seats, our presets in the others: a run folder (needs the "
    s = _command(sub, "duel", help + "interop extra)", [parents])
    s.add_argument(
        "--seats",
        required=True,
        help="line-up rotated over the seats: OpenSpiel's ismcts[:SIMULATIONS][@PRESET] (@PRESET: leaves valued by a "
        "rollout of our preset), mcts[:SIMULATIONS] or uniform, and our presets, e.g. "
        "ismcts:200@rail_baron,rail_baron,town_builder,market_trader",
    )
    s.set_defaults(func=cmd_duel)


def _audit_parser(sub):
    parents = shared(
        "game",
        *(o for o in STUDY if o != "games"),
        "strategy",
        "overwrite",
        game={"nargs": "?", "help": "the game (or game = ... in the --study file)"},
        players={"help": "player count (default: the game's usual count)"},
        out={"help": "audit folder (default results/audit_<game>_<players>p_<strategy>_<n>_s<seed>)"},
        strategy={"help": "strategy audited, in every seat (default: the game's first heuristic)"},
        overwrite={"help": "replace a different audit in --out"},
    )
    s = _command(sub, "audit", "find a strategy's blunders: evaluate its sampled decisions by rollouts", [parents])
    s.add_argument("--decisions", type=int, default=1000, help="decisions evaluated (default 1000)")
    s.add_argument("--rollouts", type=int, default=32, help="rollouts per action, even (default 32)")
    s.add_argument(
        "--cap", type=int, default=16, help="actions evaluated per decision, the chosen one included (default 16)"
    )
    s.add_argument(
        "--rollout", help="rollout policy (default: the audited preset; a search audited: the game's first heuristic)"
    )
    s.add_argument("--per-game", type=int, default=2, help="decisions sampled a game, about (default 2)")
    s.add_argument(
        "--sampling",
        choices=("stratified", "uniform"),
        default="stratified",
        help="stratified (default): rare decision kinds sampled more, means weighted back; uniform: one rate",
    )
    s.set_defaults(func=cmd_audit)


def _replay_check_report_parsers(sub):
    s = _command(sub, "replay", "print one game of a run move by move")
    s.add_argument("run", help="run folder")
    s.add_argument("index", type=int, help="game index (the `game` column)")
    s.add_argument("--config", type=int, help="in a sweep folder: the configuration (the `config` column)")
    s.set_defaults(func=cmd_replay)

    s = _command(sub, "check", "verify a run or sweep folder: every chunk's part files against the manifest")
    s.add_argument("results", help="run or sweep folder")
    s.add_argument("--quick", action="store_true", help="footers only (rows, columns, game ids), no checksums")
    s.set_defaults(func=cmd_check)

    parents = shared(
        "target", target={"help": "team games: target win share of sides, e.g. law=0.5 (default: equal sides)"}
    )
    help = "turn a run or sweep into a self-contained HTML report (or PDF) for designers"
    s = _command(sub, "report", help, [parents])
    s.add_argument("results", help="run or sweep folder")
    s.add_argument("-o", "--out", help="HTML file to write (default reports/<folder name>.html)")
    s.add_argument("--pdf", action="store_true", help="also print the report to PDF with headless Chromium")
    s.add_argument(
        "--solve",
        action="append",
        metavar="FILE",
        help="a balance-point result from `sim solve --out FILE` to include (repeatable; JSON files "
        "of that kind inside the results folder are included anyway)",
    )
    s.set_defaults(func=cmd_report)


def _bench_parser(sub):
    parents = shared(
        "players",
        "games",
        "json",
        players={"type": int, "help": "player count (default: the game's usual count)"},
        games={
            "default": 1_000_000,
            "help": "games for the all-cores and end-to-end runs (default 1000000; 1 thread plays a quarter)",
        },
        json={"help": "also write the figures to this file (as in bench/<game>.json)"},
    )
    s = _command(
        sub,
        "bench",
        "measure a game's speed (the README's figures)",
        [parents],
        BENCH_EXAMPLES,
        description="Compile time (fresh cache), cached start-up, games/s on 1 thread and on all "
        "cores, a real run with parquet writing, and the speed-up over "
        "NUMBA_DISABLE_JIT=1.  Timings vary with machine load: run it on a quiet machine.",
    )
    s.add_argument("game", nargs="?", help="game to measure (default bang_dice)")
    s.add_argument(
        "--nojit-games",
        type=int,
        default=200,
        help="games for the NUMBA_DISABLE_JIT comparison (default 200; 0 skips it)",
    )
    s.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="times each speed figure is measured; the median is reported, with the best (default 3: "
        "a shared machine's speed drifts by tens of percent; with --compare: the passes per figure, default 7)",
    )
    s.add_argument(
        "--compare",
        nargs="+",
        metavar="FILE",
        help="the regression check: play each bench/<game>.json's benchmark again (7 passes of about 0.5 s a "
        "figure, each between two measurements of a machine-speed reference), print the median raw and normalised "
        "games/s against the recorded ones with the spread of the passes, and which game fell by more than 10%% in "
        "every pass (exit 0 whatever the speed)",
    )
    s.set_defaults(func=cmd_bench)


def _sweep_parser(sub):
    parents = shared(
        *STUDY,
        *LINEUP,
        "preset",
        "strategy_file",
        "chunk_size",
        "max_games",
        "confidence",
        "scheduler",
        players={"help": "player counts, each its own configuration: 5, 3,4,5 or 3-8"},
        games={"help": "games per configuration (first round when adaptive)"},
        seed={"help": "sweep seed (default 0)"},
        set={"help": "fixed parameter override (repeatable)"},
        out={"help": "sweep folder (default results/sweep_<file or game>_s<seed>)"},
        threads={"help": "threads for local play (default: all cores)"},
        lineup={"help": "strategies rotated over the seats"},
        all_rotations={"help": "common random numbers over rotations"},
        mirror={"help": "rotate line-ups in both directions (see sim run --help)"},
        chunk_size={"help": "games per task / part file (default min(games, 10000))"},
        max_games={"help": "adaptive budget: most games per configuration"},
        study={"help": "a study file (see sim run --help) whose settings go over the sweep file's, as flags do"},
    )
    help = "play a grid of configurations (resumable; local or on a Dask cluster)"
    s = _command(sub, "sweep", help, [parents], SWEEP_EXAMPLES)
    s.add_argument("source", help="a sweep file (.toml) or a game name for a sweep given by flags")
    s.add_argument(
        "--grid",
        action="append",
        metavar="NAME=V1,V2|LO:HI:STEP",
        help="sweep a parameter; several --grid form a cartesian product (repeatable)",
    )
    s.add_argument(
        "--zip",
        action="append",
        metavar="NAME=V1,V2",
        help="parameters swept together, value by value (equal lengths; repeatable)",
    )
    s.add_argument(
        "--adaptive-metric", help="adaptive budget: the metric whose interval must narrow, e.g. order0_win_share"
    )
    s.add_argument("--adaptive-width", type=float, help="adaptive budget: target full width of the interval")
    s.add_argument(
        "--fresh",
        "--overwrite",
        dest="fresh",
        action="store_true",
        help="discard a different sweep already in --out and start over",
    )
    s.add_argument("--dry-run", action="store_true", help="print the configurations and the estimated time")
    s.set_defaults(func=cmd_sweep)


def _solve_parser(sub):
    parents = shared(
        "game",
        "players",
        "lineup",
        "strategies",
        "all_rotations",
        "set",
        "strategy_file",
        "games",
        "max_games",
        "seed",
        "confidence",
        "threads",
        "out",
        players={"help": "the player count"},
        lineup={"help": "strategies rotated over the seats"},
        strategies={"help": "one strategy per seat, fixed"},
        all_rotations={"help": "common random numbers over rotations"},
        set={"help": "other parameter overrides"},
        games={"default": 2000, "help": "games per new evaluation (default 2000)"},
        max_games={"default": 200_000, "help": "total games budget (default 200000)"},
        seed={"default": 0},
        confidence={"default": 0.95},
        out={"help": "also write the result and every evaluation to this JSON file"},
    )
    help = "find the parameter value at which a metric hits a target (balance point)"
    s = _command(sub, "solve", help, [parents], SOLVE_EXAMPLES)
    s.add_argument("--param", required=True, help="the numeric parameter to solve for")
    s.add_argument(
        "--between",
        metavar="LOW:HIGH",
        help="search range (default: the parameter's range); a negative LOW needs '=': --between=-2:4",
    )
    s.add_argument(
        "--metric", default="order0_win_share", help="metric (default order0_win_share: the first player's win share)"
    )
    s.add_argument("--target", default="fair", help="target value, or 'fair' = 1/players (default)")
    s.set_defaults(func=cmd_solve)


def _tune_parser(sub):
    parents = shared(
        "game",
        *(o for o in STUDY if o not in ("games", "threads")),
        "strategy_file",
        "strategy",
        "evals",
        "games_per_eval",
        "final_games",
        "fresh",
        game={"nargs": "?", "help": "the game (or game = ... in the --study file)"},
        players={"help": "the player count (default: the game's usual count)"},
        set={"help": "game parameter overrides"},
        out={"help": "tuning folder (default results/tune_<game>_<strategy>_<n>p_s<seed>)"},
        strategy_file={"help": "preset files (field or start)"},
        strategy={"required": True, "help": "the preset whose knobs are tuned"},
        evals={"default": 200, "help": "evaluations in all (default 200)"},
        games_per_eval={"default": 2000, "help": "games per evaluation (default 2000)"},
        final_games={"help": "games of the closing comparison (default 10 x per eval)"},
        fresh={"help": "discard a different tuning already in --out"},
    )
    help = "tune a preset's knobs to win against a field (CMA-ES; resumable)"
    s = _command(sub, "tune", help, [parents])
    s.add_argument("--knobs", help="the knobs to tune (default: all of the preset's knobs)")
    s.add_argument(
        "--field", help="opponents, cycled over the other seats (default: the default line-up without the tuned preset)"
    )
    s.add_argument("--popsize", type=int, help="candidates per generation (default cma's 4 + 3 ln(knobs))")
    s.add_argument("--name", help="name of the tuned preset (default <strategy>_tuned)")
    s.set_defaults(func=cmd_tune)


def _field_parser(sub):
    parents = shared(
        "game",
        "players",
        "pool",
        "games",
        "evals",
        "games_per_eval",
        "final_games",
        "seed",
        "set",
        "strategy_file",
        "work",
        "out",
        "threads",
        "no_progress",
        players={"type": int, "help": "the player count (default: the game's usual count)"},
        games={"default": 2000, "help": "games per line-up of the payoff table (default 2000)"},
        evals={"default": 60, "help": "tuning evaluations per best response (default 60)"},
        games_per_eval={"default": 1000, "help": "games per tuning evaluation (default 1000)"},
        final_games={"default": 20000, "help": "paired games measuring a gain (default 20000)"},
        seed={"default": 0},
        set={"help": "game parameter overrides"},
        strategy_file={"help": "preset files for the pool"},
        work={"help": "work folder, resumable (default results/field_<game>_<n>p_s<seed>)"},
        out={"help": "field file (default strategies/<game>/fields/<n>p.json)"},
    )
    help = "an equilibrium field over a pool of presets (EGTA + PSRO; resumable)"
    s = _command(sub, "field", help, [parents])
    s.add_argument("--iterations", type=int, default=3, help="best responses at most (the budget; default 3)")
    s.set_defaults(func=cmd_field)


def _improve_parser(sub):
    parents = shared(
        "game",
        "strategy",
        "players",
        "evals",
        "games_per_eval",
        "final_games",
        "seed",
        "strategy_file",
        "work",
        "out",
        "threads",
        "no_progress",
        strategy={"required": True, "help": "the preset improved (a preset with knobs)"},
        players={"type": int, "help": "the player count (default: the game's usual count)"},
        evals={"default": 40, "help": "tuning evaluations per iteration (default 40)"},
        games_per_eval={"default": 1000, "help": "games per tuning evaluation (default 1000)"},
        final_games={"default": 4000, "help": "paired games of the gain over the previous (4000)"},
        seed={"default": 0},
        strategy_file={"help": "preset files"},
        work={"help": "work folder, resumable (default results/improve_<game>_<strategy>_<n>p_s<seed>)"},
        out={
            "help": "preset file of the best iteration, the highest sum of paired gains over the start (default "
            "strategies/<game>/improved/<strategy>_improved_<n>p.toml)"
        },
    )
    help = "expert iteration: tune a preset to absorb the rollout search (resumable)"
    s = _command(sub, "improve", help, [parents])
    s.add_argument("--iterations", type=int, default=2, help="iterations (default 2)")
    s.add_argument("--positions", type=int, default=300, help="positions where search's choice is recorded (300)")
    s.add_argument("--rollouts", type=int, default=16, help="rollouts per action at a position (default 16)")
    s.add_argument("--agreement", type=float, default=0.5, help="weight of the agreement with search (default 0.5)")
    s.add_argument("--search-rollouts", type=int, default=8, help="rollouts of the search measured (default 8)")
    s.add_argument("--search-games", type=int, default=200, help="paired games of search's gain (default 200)")
    s.add_argument(
        "--sigma0",
        type=float,
        help="CMA-ES's initial step, a share of every knob's range (default sim tune's 0.25; smaller refines near "
        "the preset)",
    )
    s.add_argument(
        "--field",
        nargs="?",
        const="field",
        metavar="FILE",
        help="opponents drawn from the game's shipped equilibrium field at --players (or the field file FILE) "
        "instead of the default line-up",
    )
    s.set_defaults(func=cmd_improve)


def _cost_parser(sub):
    parents = shared(
        "game",
        "players",
        "pool",
        "strategy",
        "games",
        "strategy_file",
        "json",
        players={"type": int, "help": "the player count (default: the game's usual count)"},
        pool={"help": "the field's pool (default: the default line-up's presets)"},
        strategy={"help": "the preset improved (default: the game's rollout preset)"},
        games={"default": 2000, "help": "games timed (default 2000)"},
        strategy_file={"help": "preset files"},
    )
    help = "CPU hours of sim field and sim improve at their default budgets (measured)"
    s = _command(sub, "cost", help, [parents])
    s.set_defaults(func=cmd_cost)


def _effect_parser(sub):
    parents = shared(
        "game",
        *(o for o in STUDY if o != "no_progress"),
        "lineup",
        "strategies",
        game={"nargs": "?", "help": "the game (or game = ... in the --study file)"},
        players={"help": "the player count (default: the game's usual count)"},
        games={"help": "paired games (default 10000)"},
        set={"help": "other parameter overrides"},
        out={"help": "also write the result to this JSON file"},
        lineup={"help": "strategies rotated over the seats"},
        strategies={"help": "one strategy per seat, fixed"},
    )
    help = "causal effect of an item: paired games with and without it (same seeds)"
    s = _command(sub, "effect", help, [parents])
    s.add_argument("--item", required=True, help="the item (card, building, character...) to remove or deal")
    s.add_argument(
        "--deal-to-seat",
        type=int,
        metavar="SEAT",
        help="deal the item to this seat (0-based) instead of removing it (games that deal items)",
    )
    s.set_defaults(func=cmd_effect)


def _readings_parser(sub):
    parents = shared(
        "game",
        *STUDY,
        "lineup",
        "preset",
        "max_games",
        "overwrite",
        game={"nargs": "?", "help": "the game (or game = ... in the --study file)"},
        players={"help": "one player count (default: the game's usual count)"},
        games={"help": "paired games per reading and round (default 2000)"},
        max_games={"help": "most games per reading: unclear readings get more rounds (default: --games, one round)"},
        lineup={"help": "strategies rotated over the seats (default: the game's line-up)"},
        preset={"help": "study the readings on this preset (e.g. bang_dice full)"},
        set={"help": "other fixed overrides (not studied)"},
        out={"help": "folder (default results/readings_<game>_<N>p_s<seed>[_<preset>])"},
        overwrite={"help": "replace a different study in --out"},
    )
    s = _command(
        sub,
        "readings",
        "which rulebook ambiguities change the balance (paired games per reading)",
        [parents],
        description="For each rule-reading parameter and alternative, the same seeds are played "
        "under the default and the alternative; the change in every verdict family is "
        "reported with 95% intervals and ranked.  Resumable; budgets adaptive.",
    )
    s.add_argument("--only", help="only these reading parameters (comma-separated)")
    s.set_defaults(func=cmd_readings)


def _ladder_parser(sub):
    parents = shared(
        "study",
        "players",
        "games",
        "threads",
        "no_progress",
        "fresh",
        "target",
        "scheduler",
        players={
            "help": "the run's player counts the rungs play (default: all of them); --plan: the one measured "
            "(default 4)"
        },
        games={"help": "games per player count in a batch of a heuristic rung (default 2000)"},
        threads={"help": "threads (default: all cores; results do not depend on it)"},
        no_progress={"help": "no progress bars"},
        fresh={"help": "discard RUN/ladder (every batch) and start over"},
        study={"help": "a study file (see sim run --help): its players, games and threads (of the run's game)"},
        scheduler={
            "help": "play the rungs' batches on this dask.distributed scheduler (the run folder must be shared)"
        },
    )
    help = "do a run's findings hold with stronger players? the same settings played by stronger populations"
    s = _command(sub, "ladder", help, [parents], LADDER_EXAMPLES)
    s.add_argument("run", help="a finished run folder (rung 0: its own players)")
    s.add_argument(
        "--rungs",
        help="the rungs above the run, separated by ';': 'tuned' (shipped tuned presets), a search name "
        "('search', 'search64': every seat a search with its preset as rollout policy) or a line-up 'a,b,c' "
        "(default: 'tuned;search;search<4x rollouts>')",
    )
    s.add_argument("--search-games", type=int, default=200, help="games per player count in a batch of a search rung")
    s.add_argument(
        "--max-batches",
        type=int,
        default=5,
        help="batches per rung at most (more while a headline is unsettled)",
    )
    s.add_argument(
        "--effect-games",
        type=int,
        default=2000,
        help="paired games per headline item (search rungs: a tenth; 0: none)",
    )
    s.add_argument("--plan", action="store_true", help="measure the CPU seconds per game of every rung instead")
    s.add_argument("--plan-games", type=int, default=6, help="--plan: games measured per rung")
    s.set_defaults(func=cmd_ladder)


# every command's parser, in the order `sim --help` lists them
COMMANDS = (
    _listing_parsers,
    _run_parser,
    _duel_parser,
    _audit_parser,
    _replay_check_report_parsers,
    _bench_parser,
    _sweep_parser,
    _solve_parser,
    _tune_parser,
    _field_parser,
    _improve_parser,
    _cost_parser,
    _effect_parser,
    _readings_parser,
    _ladder_parser,
)


def build_parser():
    p = Parser(
        prog="sim",
        description="Monte Carlo balance lab for tabletop games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for add in COMMANDS:
        add(sub)
    return p


def main(argv=None):
    """Every command ends in one of three ways: done (0), one line on stderr (2), or interrupted (130).  The one
    place that turns bad input, unreadable files, OS errors and a closed pipe into that line is here."""
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # `sim params GAME | head -1`: the reader is gone, which is not an error of ours; silence the flush at exit
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # classified below; anything unknown is re-raised with its traceback
        line = error_line(e, args.command)
        if line is None:
            raise
        sys.stderr.write(f"sim {args.command}: error: {line}\n")
        return 2
    return 0


def _quiet_stdout():
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def error_line(e, command=None):
    """One line for an error a user can cause (bad input, a file we cannot read or write), else None."""
    from .errors import describe_error

    return describe_error(e, command)


if __name__ == "__main__":
    sys.exit(main())
