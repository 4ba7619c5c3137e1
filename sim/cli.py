"""The `sim` command line: run studies, replay games, list games, strategies and parameters, benchmark."""

import argparse
import sys
import textwrap

from .errors import UserError, one_line

EXAMPLES = """\
examples:
  sim games
  sim strategies bang_dice
  sim params bang_dice
  sim run bang_dice --games 100000 --players 5 --seed 1
  sim run bang_dice --players 4-8 --lineup belief,omniscient,aggressive --all-rotations
  sim run gunny_town --lineup lawman,gambler,lawman,gambler --all-rotations --mirror
  sim run bang_dice --strategies belief,belief,random,random,random --set module.ghost=on
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
    from .sweep import parse_player_counts

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
    from .runner import run_study

    players = parse_players(args.players) if args.players else None
    from .game import get_game

    g = get_game(args.game)
    from .knobs import expand_lineup, load_files

    load_files(g, args.strategy_file)
    lineup = expand_lineup(g, parse_names(args.lineup))  # `tuned`: the shipped tuned presets
    players = players or (g.default_players,)
    out = args.out or default_run_out(g, players, args)
    path = run_study(
        args.game,
        out,
        games=args.games,
        players=players,
        lineup=lineup,
        strategies=parse_names(args.strategies, "--strategies"),
        all_rotations=args.all_rotations,
        seed=args.seed,
        params=_with_preset(args, parse_sets(args.set)),
        chunk_size=args.chunk_size,
        threads=args.threads,
        progress=not args.no_progress,
        overwrite=args.overwrite,
        command=" ".join(sys.argv),
        standings=args.standings,
        mirror=args.mirror,
    )
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


def default_run_out(g, players, args):
    """results/<game>_<players>p_<games>_s<seed>, plus a short hash of every other setting that changes the games
    (line-up, seats, rotations, parameters) when one differs from the default: runs of a shell loop over --set
    values get folders of their own instead of sharing one."""
    from .runner import prepare, settings_hash

    name = f"results/{g.name}_{'-'.join(map(str, players))}p_{args.games}_s{args.seed}"
    spec, design, pvec = prepare(
        g,
        players,
        args.games,
        parse_names(args.lineup),
        parse_names(args.strategies, "--strategies"),
        args.all_rotations,
        _with_preset(args, parse_sets(args.set)),
        args.mirror,
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


def _with_preset(args, sets):
    from .presets import with_preset

    return with_preset(args.game, getattr(args, "preset", None), sets)


def _preset_sets(args):
    """A sweep's --set list with the preset's values first (explicit --set entries win)."""
    if not getattr(args, "preset", None):
        return args.set
    from .presets import preset_params
    from .sweep import load_sweep_file

    game = args.source if not str(args.source).endswith(".toml") else load_sweep_file(args.source).get("game")
    swept = {g.split("=", 1)[0].strip() for g in list(args.grid or []) + list(args.zip or [])}
    return [f"{k}={v}" for k, v in preset_params(game, args.preset).items() if k not in swept] + list(args.set or [])


def cmd_readings(args):
    _keep_freed_memory()
    from .readings import run_readings, table_lines

    players = parse_players(args.players)
    if len(players) != 1:
        raise UserError(f"sim readings works on one player count at a time (got {args.players})")
    out = args.out or f"results/readings_{args.game}_{players[0]}p_s{args.seed}" + (
        f"_{args.preset}" if args.preset else ""
    )
    summary = run_readings(
        args.game,
        players[0],
        out,
        games=args.games,
        max_games=args.max_games,
        seed=args.seed,
        lineup=parse_names(args.lineup),
        params=parse_sets(args.set),
        preset=args.preset,
        only=parse_names(args.only),
        threads=args.threads,
        progress=not args.no_progress,
        overwrite=args.overwrite,
        command=" ".join(sys.argv),
    )
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
    from .bench import bench, compare
    from .game import get_game

    if args.compare:
        if args.game is not None or args.json:
            raise UserError("--compare reads the game from each file: give no game and no --json with it")
        if args.repeat < 1:
            raise UserError(f"--repeat must be at least 1 (got {args.repeat})")
        compare(args.compare, repeat=args.repeat)
        return
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


def cmd_sweep(args):
    _keep_freed_memory()
    from .sweep import build_sweep, dry_run, print_summary, raw_from_flags, run_sweep, set_threads

    raw, name = raw_from_flags(
        args.source,
        players=args.players,
        games=args.games,
        seed=args.seed,
        lineup=args.lineup,
        strategies=args.strategies,
        all_rotations=args.all_rotations,
        mirror=args.mirror,
        sets=_preset_sets(args),
        grids=args.grid,
        zips=args.zip,
        chunk_size=args.chunk_size,
        adaptive_metric=args.adaptive_metric,
        adaptive_width=args.adaptive_width,
        max_games=args.max_games,
        confidence=args.confidence,
    )
    where = f"sweep file {args.source}" if str(args.source).endswith(".toml") else "sweep"
    from .knobs import expand_sweep_lineups

    raw = expand_sweep_lineups(raw, args.strategy_file)  # preset files; `tuned`: the shipped tuned presets
    sweep = build_sweep(raw, where)
    if args.dry_run:
        set_threads(args.threads)
        dry_run(sweep)
        return
    out = args.out or f"results/sweep_{name}_s{sweep.seed}"
    if (
        any(
            v not in (None, False, [], ())
            for v in (
                args.players,
                args.games,
                args.seed,
                args.lineup,
                args.strategies,
                args.all_rotations,
                args.mirror,
                args.set,
                args.grid,
                args.zip,
                args.chunk_size,
                args.adaptive_metric,
                args.adaptive_width,
                args.max_games,
                args.confidence,
            )
        )
        and not args.out
    ):
        # flags on top of a file (or a sweep given by flags): the name carries a hash of the whole sweep, so two
        # different sweeps never share the default folder
        from .sweep import sweep_hash

        out = f"{out}_{sweep_hash(sweep)}"
    frame = run_sweep(
        sweep,
        out,
        scheduler=args.scheduler,
        fresh=args.fresh,
        progress=not args.no_progress,
        threads=args.threads,
        command=" ".join(sys.argv),
    )
    print_summary(sweep, frame)
    print(f"results in {out} (summary.parquet: one row per configuration)")


def cmd_tune(args):
    _keep_freed_memory()
    from .knobs import load_files
    from .tune import report_lines, tune

    load_files(args.game, args.strategy_file)
    players = parse_players(args.players) if args.players else None
    if players and len(players) != 1:
        raise UserError(f"sim tune works on one player count at a time (got {args.players})")
    from .game import get_game

    g = get_game(args.game)
    n = players[0] if players else g.default_players
    out = args.out or f"results/tune_{g.name}_{args.strategy}_{n}p_s{args.seed}"
    from .knobs import expand_lineup

    expand_lineup(g, [args.strategy])  # a shipped <preset>_tuned can be tuned further
    field = expand_lineup(g, parse_names(args.field))  # `tuned`: against the shipped tuned presets
    result = tune(
        g,
        args.strategy,
        n,
        out,
        evals=args.evals,
        games_per_eval=args.games_per_eval,
        seed=args.seed,
        popsize=args.popsize,
        knobs=parse_names(args.knobs),
        field=field,
        final_games=args.final_games,
        name=args.name,
        fresh=args.fresh,
        progress=not args.no_progress,
        command="sim " + " ".join(sys.argv[1:]),
        params=parse_sets(args.set),
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
        args.game,
        players=args.players,
        strategy=args.strategy,
        decisions=args.decisions,
        rollouts=args.rollouts,
        cap=args.cap,
        rollout=args.rollout,
        per_game=args.per_game,
        sampling=args.sampling,
        seed=args.seed,
        out=args.out,
        params=parse_sets(args.set),
        threads=args.threads,
        progress=not args.no_progress,
        overwrite=args.overwrite,
        command=" ".join(sys.argv),
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
        seed=args.seed,
        work=args.work,
        out_file=args.out,
        progress=not args.no_progress,
        command="sim " + " ".join(sys.argv[1:]),
    )
    for line in report_lines(log):
        print(line)
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

    players = parse_players(args.players) if args.players else None
    if players and len(players) != 1:
        raise UserError(f"sim effect works on one player count at a time (got {args.players})")
    res = item_effect(
        args.game,
        args.item,
        players=players[0] if players else None,
        games=args.games,
        seed=args.seed,
        lineup=parse_names(args.lineup),
        strategies=parse_names(args.strategies),
        overrides=parse_sets(args.set),
        deal_seat=args.deal_to_seat,
        threads=args.threads,
    )
    for line in report_lines(res):
        print(line)
    if args.out:
        with open(args.out, "w") as f:
            _json.dump(to_json(res), f, indent=1, default=float)
        print(f"details in {args.out}")


def cmd_ladder(args):
    from . import ladder as L

    rungs = L.parse_rungs(args.rungs)
    if args.plan:
        n = parse_players(args.players)[0] if args.players else 4
        spec, table = L.plan(args.run, rungs, players=n, games=args.plan_games, threads=args.threads or 1)
        for line in L.plan_lines(spec, table, n, args.games, args.search_games):
            print(line)
        return
    summary = L.run_ladder(
        args.run,
        rungs,
        games=args.games,
        search_games=args.search_games,
        max_batches=args.max_batches,
        effect_games=args.effect_games,
        threads=args.threads,
        targets=args.target,
        progress=not args.no_progress,
        fresh=args.fresh,
        players=parse_players(args.players) if args.players else None,
        log=L.log_stderr,
    )
    for line in L.summary_lines(summary):
        print(line)
    print(f"ladder written to {args.run}/ladder (summary.parquet); `sim report {args.run}` shows it")


def build_parser():
    p = Parser(
        prog="sim",
        description="Monte Carlo balance lab for tabletop games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    s = sub.add_parser("games", help="list the games")
    s.set_defaults(func=cmd_games)
    s = sub.add_parser("strategies", help="list a game's strategies")
    s.add_argument("game")
    s.set_defaults(func=cmd_strategies)
    s = sub.add_parser("params", help="list a game's parameters with defaults and provenance")
    s.add_argument("game")
    s.add_argument("--grep", help="only names containing this text")
    s.set_defaults(func=cmd_params)

    s = sub.add_parser(
        "run",
        help="play a study and write parquet results",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("game")
    s.add_argument("--games", type=int, default=10_000, help="games per player count (default 10000)")
    s.add_argument("--players", help="player count(s): 5, 3,4,5 or 3-8 (default: the game's usual count)")
    s.add_argument(
        "--lineup",
        help="strategies rotated over the seats (default: the game's line-up; `tuned`: "
        "that line-up played by the game's shipped tuned presets)",
    )
    s.add_argument("--strategies", help="one strategy per seat, fixed (no rotation)")
    s.add_argument(
        "--all-rotations", action="store_true", help="replay each seed under every rotation (common random numbers)"
    )
    s.add_argument(
        "--mirror",
        action="store_true",
        help="rotate the line-up in both directions, so no strategy always sits on the same one's left "
        "(for head to head line-ups such as A,B,A,B in games with left/right effects)",
    )
    s.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a parameter (repeatable)")
    s.add_argument("--preset", help="a named set of rule values, e.g. bang_dice: base, full (--set wins over it)")
    s.add_argument(
        "--strategy-file",
        action="append",
        metavar="TOML",
        help="a preset file (base preset + knob values) that line-ups can name (repeatable)",
    )
    s.add_argument("--out", help="run folder (default results/<game>_<players>p_<games>_s<seed>)")
    s.add_argument("--chunk-size", type=int, help="games per part file (default 50000; 5000 with --standings)")
    s.add_argument("--threads", type=int, help="threads (default: all cores)")
    s.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a different run (other request or game code) already in --out; the same run is "
        "resumed either way",
    )
    s.add_argument(
        "--standings",
        action="store_true",
        help="also keep every seat's standing each round (the standings table: lead changes and "
        "comebacks in the report's arc section); the same games, played a little slower",
    )
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_run)

    s = sub.add_parser(
        "duel",
        help="OpenSpiel players (ismcts, mcts) in some seats, our presets in the others: a run folder "
        "(needs the interop extra)",
    )
    s.add_argument("game")
    s.add_argument("--players", type=int, help="player count (default: the game's default)")
    s.add_argument(
        "--seats",
        required=True,
        help="line-up rotated over the seats: OpenSpiel's ismcts[:SIMULATIONS], mcts[:SIMULATIONS] or uniform, and "
        "our presets, e.g. ismcts:200,rail_baron,town_builder,market_trader",
    )
    s.add_argument("--games", type=int, default=100, help="games (default 100)")
    s.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a parameter (repeatable)")
    s.add_argument("--preset", help="a named set of rule values (--set wins over it)")
    s.add_argument("--out", help="run folder (default results/<game>_duel_<players>p_<games>_s<seed>)")
    s.add_argument("--chunk-size", type=int, default=10, help="games per part file (default 10): the unit of resume")
    s.add_argument("--overwrite", action="store_true", help="replace a different run already in --out")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_duel)

    s = sub.add_parser("audit", help="find a strategy's blunders: evaluate its sampled decisions by rollouts")
    s.add_argument("game")
    s.add_argument("--players", type=int, help="player count (default: the game's usual count)")
    s.add_argument("--strategy", help="strategy audited, in every seat (default: the game's first heuristic)")
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
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a parameter (repeatable)")
    s.add_argument("--out", help="audit folder (default results/audit_<game>_<players>p_<strategy>_<n>_s<seed>)")
    s.add_argument("--threads", type=int, help="threads (default: all cores)")
    s.add_argument("--overwrite", action="store_true", help="replace a different audit in --out")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_audit)

    s = sub.add_parser("replay", help="print one game of a run move by move")
    s.add_argument("run", help="run folder")
    s.add_argument("index", type=int, help="game index (the `game` column)")
    s.add_argument("--config", type=int, help="in a sweep folder: the configuration (the `config` column)")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser(
        "bench",
        help="measure a game's speed (the README's figures)",
        description="Compile time (fresh cache), cached start-up, games/s on 1 thread and on all "
        "cores, a real run with parquet writing, and the speed-up over "
        "NUMBA_DISABLE_JIT=1.  Timings vary with machine load: run it on a quiet machine.",
        epilog=BENCH_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("game", nargs="?", help="game to measure (default bang_dice)")
    s.add_argument(
        "--games",
        type=int,
        default=1_000_000,
        help="games for the all-cores and end-to-end runs (default 1000000; 1 thread plays a quarter)",
    )
    s.add_argument("--players", type=int, help="player count (default: the game's usual count)")
    s.add_argument(
        "--nojit-games",
        type=int,
        default=200,
        help="games for the NUMBA_DISABLE_JIT comparison (default 200; 0 skips it)",
    )
    s.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="times each speed figure is measured; the median is reported, with the best (default 3: "
        "a shared machine's speed drifts by tens of percent)",
    )
    s.add_argument("--json", help="also write the figures to this file (as in bench/<game>.json)")
    s.add_argument(
        "--compare",
        nargs="+",
        metavar="FILE",
        help="the regression check: play each bench/<game>.json's benchmark again (about 2 s a figure) beside a "
        "machine-speed reference measured in the same minute, print raw and normalised games/s against the "
        "recorded ones and which game fell by more than 10%% (exit 0 whatever the speed)",
    )
    s.set_defaults(func=cmd_bench)

    s = sub.add_parser(
        "sweep",
        help="play a grid of configurations (resumable; local or on a Dask cluster)",
        epilog=SWEEP_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("source", help="a sweep file (.toml) or a game name for a sweep given by flags")
    s.add_argument("--players", help="player counts, each its own configuration: 5, 3,4,5 or 3-8")
    s.add_argument("--games", type=int, help="games per configuration (first round when adaptive)")
    s.add_argument("--seed", type=int, help="sweep seed (default 0)")
    s.add_argument("--lineup", help="strategies rotated over the seats")
    s.add_argument("--strategies", help="one strategy per seat, fixed")
    s.add_argument("--all-rotations", action="store_true", help="common random numbers over rotations")
    s.add_argument("--mirror", action="store_true", help="rotate line-ups in both directions (see sim run --help)")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="fixed parameter override (repeatable)")
    s.add_argument("--preset", help="a named set of rule values, e.g. bang_dice: base, full (--set wins over it)")
    s.add_argument(
        "--strategy-file",
        action="append",
        metavar="TOML",
        help="a preset file (base preset + knob values) that line-ups can name (repeatable)",
    )
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
    s.add_argument("--chunk-size", type=int, help="games per task / part file (default min(games, 10000))")
    s.add_argument(
        "--adaptive-metric", help="adaptive budget: the metric whose interval must narrow, e.g. order0_win_share"
    )
    s.add_argument("--adaptive-width", type=float, help="adaptive budget: target full width of the interval")
    s.add_argument("--max-games", type=int, help="adaptive budget: most games per configuration")
    s.add_argument("--confidence", type=float, help="interval level (default 0.95)")
    s.add_argument("--out", help="sweep folder (default results/sweep_<file or game>_s<seed>)")
    s.add_argument(
        "--fresh",
        "--overwrite",
        dest="fresh",
        action="store_true",
        help="discard a different sweep already in --out and start over",
    )
    s.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="run the tasks on this dask.distributed scheduler (--out must be shared with the workers)",
    )
    s.add_argument("--threads", type=int, help="threads for local play (default: all cores)")
    s.add_argument("--dry-run", action="store_true", help="print the configurations and the estimated time")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_sweep)

    s = sub.add_parser(
        "solve",
        help="find the parameter value at which a metric hits a target (balance point)",
        epilog=SOLVE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("game")
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
    s.add_argument("--players", help="the player count")
    s.add_argument("--lineup", help="strategies rotated over the seats")
    s.add_argument("--strategies", help="one strategy per seat, fixed")
    s.add_argument("--all-rotations", action="store_true", help="common random numbers over rotations")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="other parameter overrides")
    s.add_argument(
        "--strategy-file",
        action="append",
        metavar="TOML",
        help="a preset file (base preset + knob values) that line-ups can name (repeatable)",
    )
    s.add_argument("--games", type=int, default=2000, help="games per new evaluation (default 2000)")
    s.add_argument("--max-games", type=int, default=200_000, help="total games budget (default 200000)")
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    s.add_argument("--threads", type=int, help="threads (default: all cores)")
    s.add_argument("--out", help="also write the result and every evaluation to this JSON file")
    s.set_defaults(func=cmd_solve)

    s = sub.add_parser("check", help="verify a run or sweep folder: every chunk's part files against the manifest")
    s.add_argument("results", help="run or sweep folder")
    s.add_argument("--quick", action="store_true", help="footers only (rows, columns, game ids), no checksums")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("tune", help="tune a preset's knobs to win against a field (CMA-ES; resumable)")
    s.add_argument("game")
    s.add_argument("--strategy", required=True, help="the preset whose knobs are tuned")
    s.add_argument("--players", help="the player count (default: the game's usual count)")
    s.add_argument("--knobs", help="the knobs to tune (default: all of the preset's knobs)")
    s.add_argument(
        "--field", help="opponents, cycled over the other seats (default: the default line-up without the tuned preset)"
    )
    s.add_argument("--evals", type=int, default=200, help="evaluations in all (default 200)")
    s.add_argument("--games-per-eval", type=int, default=2000, help="games per evaluation (default 2000)")
    s.add_argument("--popsize", type=int, help="candidates per generation (default cma's 4 + 3 ln(knobs))")
    s.add_argument("--final-games", type=int, help="games of the closing comparison (default 10 x per eval)")
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="game parameter overrides")
    s.add_argument("--strategy-file", action="append", metavar="TOML", help="preset files (field or start)")
    s.add_argument("--name", help="name of the tuned preset (default <strategy>_tuned)")
    s.add_argument("--out", help="tuning folder (default results/tune_<game>_<strategy>_<n>p_s<seed>)")
    s.add_argument("--fresh", action="store_true", help="discard a different tuning already in --out")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_tune)

    s = sub.add_parser("field", help="an equilibrium field over a pool of presets (EGTA + PSRO; resumable)")
    s.add_argument("game")
    s.add_argument("--players", type=int, help="the player count (default: the game's usual count)")
    s.add_argument("--pool", help="the starting presets, comma-separated (default: the default line-up's)")
    s.add_argument("--games", type=int, default=2000, help="games per line-up of the payoff table (default 2000)")
    s.add_argument("--iterations", type=int, default=3, help="best responses at most (the budget; default 3)")
    s.add_argument("--evals", type=int, default=60, help="tuning evaluations per best response (default 60)")
    s.add_argument("--games-per-eval", type=int, default=1000, help="games per tuning evaluation (default 1000)")
    s.add_argument("--final-games", type=int, default=20000, help="paired games measuring a gain (default 20000)")
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="game parameter overrides")
    s.add_argument("--strategy-file", action="append", metavar="TOML", help="preset files for the pool")
    s.add_argument("--work", help="work folder, resumable (default results/field_<game>_<n>p_s<seed>)")
    s.add_argument("--out", help="field file (default strategies/<game>/fields/<n>p.json)")
    s.add_argument("--threads", type=int, help="threads (default: all cores)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_field)

    s = sub.add_parser("improve", help="expert iteration: tune a preset to absorb the rollout search (resumable)")
    s.add_argument("game")
    s.add_argument("--strategy", required=True, help="the preset improved (a preset with knobs)")
    s.add_argument("--players", type=int, help="the player count (default: the game's usual count)")
    s.add_argument("--iterations", type=int, default=2, help="iterations (default 2)")
    s.add_argument("--positions", type=int, default=300, help="positions where search's choice is recorded (300)")
    s.add_argument("--rollouts", type=int, default=16, help="rollouts per action at a position (default 16)")
    s.add_argument("--agreement", type=float, default=0.5, help="weight of the agreement with search (default 0.5)")
    s.add_argument("--evals", type=int, default=40, help="tuning evaluations per iteration (default 40)")
    s.add_argument("--games-per-eval", type=int, default=1000, help="games per tuning evaluation (default 1000)")
    s.add_argument("--final-games", type=int, default=4000, help="paired games of the gain over the previous (4000)")
    s.add_argument("--search-rollouts", type=int, default=8, help="rollouts of the search measured (default 8)")
    s.add_argument("--search-games", type=int, default=200, help="paired games of search's gain (default 200)")
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--strategy-file", action="append", metavar="TOML", help="preset files")
    s.add_argument("--work", help="work folder, resumable (default results/improve_<game>_<strategy>_<n>p_s<seed>)")
    s.add_argument("--out", help="preset file (default strategies/<game>/improved/<strategy>_improved_<n>p.toml)")
    s.add_argument("--threads", type=int, help="threads (default: all cores)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_improve)

    s = sub.add_parser("cost", help="CPU hours of sim field and sim improve at their default budgets (measured)")
    s.add_argument("game")
    s.add_argument("--players", type=int, help="the player count (default: the game's usual count)")
    s.add_argument("--pool", help="the field's pool (default: the default line-up's presets)")
    s.add_argument("--strategy", help="the preset improved (default: the game's rollout preset)")
    s.add_argument("--games", type=int, default=2000, help="games timed (default 2000)")
    s.add_argument("--strategy-file", action="append", metavar="TOML", help="preset files")
    s.add_argument("--json", help="also write the figures to this file")
    s.set_defaults(func=cmd_cost)

    s = sub.add_parser("effect", help="causal effect of an item: paired games with and without it (same seeds)")
    s.add_argument("game")
    s.add_argument("--item", required=True, help="the item (card, building, character...) to remove or deal")
    s.add_argument("--players", help="the player count (default: the game's usual count)")
    s.add_argument("--games", type=int, default=10_000, help="paired games (default 10000)")
    s.add_argument(
        "--deal-to-seat",
        type=int,
        metavar="SEAT",
        help="deal the item to this seat (0-based) instead of removing it (games that deal items)",
    )
    s.add_argument("--lineup", help="strategies rotated over the seats")
    s.add_argument("--strategies", help="one strategy per seat, fixed")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="other parameter overrides")
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--threads", type=int, help="threads (default: all cores)")
    s.add_argument("--out", help="also write the result to this JSON file")
    s.set_defaults(func=cmd_effect)

    s = sub.add_parser(
        "readings",
        help="which rulebook ambiguities change the balance (paired games per reading)",
        description="For each rule-reading parameter and alternative, the same seeds are played "
        "under the default and the alternative; the change in every verdict family is "
        "reported with 95% intervals and ranked.  Resumable; budgets adaptive.",
    )
    s.add_argument("game")
    s.add_argument("--players", required=True, help="one player count")
    s.add_argument("--games", type=int, default=2000, help="paired games per reading and round (default 2000)")
    s.add_argument(
        "--max-games",
        type=int,
        help="most games per reading: unclear readings get more rounds (default: --games, one round)",
    )
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--lineup", help="strategies rotated over the seats (default: the game's line-up)")
    s.add_argument("--preset", help="study the readings on this preset (e.g. bang_dice full)")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="other fixed overrides (not studied)")
    s.add_argument("--only", help="only these reading parameters (comma-separated)")
    s.add_argument("--out", help="folder (default results/readings_<game>_<N>p_s<seed>[_<preset>])")
    s.add_argument("--overwrite", action="store_true", help="replace a different study in --out")
    s.add_argument("--threads", type=int, help="threads (default: all cores)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_readings)

    s = sub.add_parser("report", help="turn a run or sweep into a self-contained HTML report (or PDF) for designers")
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
    s.add_argument(
        "--target",
        metavar="SIDE=SHARE,...",
        help="team games: target win share of sides, e.g. law=0.5 (default: equal sides)",
    )
    s.set_defaults(func=cmd_report)

    s = sub.add_parser(
        "ladder",
        help="do a run's findings hold with stronger players? the same settings played by stronger populations",
        epilog=LADDER_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("run", help="a finished run folder (rung 0: its own players)")
    s.add_argument(
        "--rungs",
        help="the rungs above the run, separated by ';': 'tuned' (shipped tuned presets), a search name "
        "('search', 'search64': every seat a search with its preset as rollout policy) or a line-up 'a,b,c' "
        "(default: 'tuned;search;search<4x rollouts>')",
    )
    s.add_argument("--games", type=int, default=2000, help="games per player count in a batch of a heuristic rung")
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
    s.add_argument("--threads", type=int, help="threads (default: all cores; results do not depend on it)")
    s.add_argument("--target", metavar="SIDE=SHARE,...", help="team games: target win share of sides")
    s.add_argument("--fresh", action="store_true", help="discard RUN/ladder (every batch) and start over")
    s.add_argument("--plan", action="store_true", help="measure the CPU seconds per game of every rung instead")
    s.add_argument(
        "--players",
        help="the run's player counts the rungs play (default: all of them); --plan: the one measured (default 4)",
    )
    s.add_argument("--plan-games", type=int, default=6, help="--plan: games measured per rung")
    s.add_argument("--no-progress", action="store_true", help="no progress bars")
    s.set_defaults(func=cmd_ladder)
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
